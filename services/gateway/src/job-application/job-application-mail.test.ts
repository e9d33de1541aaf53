import { Writable } from "node:stream";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { logLevelNumber } from "@sd/telemetry";
import { createMailer, MailNotConfiguredError } from "../mail/mailer";
import { hiringEmail } from "./hiring-email";
import { looksLikePdf, safeResumeName, type ReceivedApplication } from "./read-application";

/** A logger whose JSON lines are kept for inspection. */
function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split("\n").filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level: "info" }, stream), lines };
}

const application: ReceivedApplication = {
  name: "Ada\r\nBcc: everyone@example.com",
  email: "ada@example.com",
  phone: "+44 20 7946 0958",
  linkedin: "https://www.linkedin.com/in/ada",
  accomplishment: "Wrote the first published computer program.",
  position: "Software Engineers",
  department: "Engineering",
  resume: { filename: "cv.pdf", content: Buffer.from("%PDF-1.7 tiny") },
};
const ref = { id: "app-1", receivedAt: new Date("2026-01-02T03:04:05Z"), ip: "203.0.113.9" };

describe("the hiring team's email", () => {
  it("lists every field, attaches the resume and answers to the applicant", () => {
    const mail = hiringEmail("hiring@example.com", application, ref);
    expect(mail.to).toBe("hiring@example.com");
    expect(mail.replyTo).toBe("ada@example.com");
    for (const value of [application.phone, application.linkedin, application.accomplishment, "app-1", "2026-01-02T03:04:05.000Z", "203.0.113.9"]) {
      expect(mail.text).toContain(value);
    }
    expect(mail.text).toContain("Resume: cv.pdf (0.0 KB), attached");
    expect(mail.attachments).toEqual([{ filename: "cv.pdf", content: application.resume?.content, contentType: "application/pdf" }]);
  });

  it("keeps the subject on one line whatever the applicant typed", () => {
    expect(hiringEmail("h@example.com", application, ref).subject).toBe(
      "Job application: Software Engineers (Engineering) - Ada Bcc: everyone@example.com",
    );
  });

  it("says when there is no resume", () => {
    const mail = hiringEmail("h@example.com", { ...application, resume: null }, { ...ref, ip: null });
    expect(mail.text).toContain("Resume: none");
    expect(mail.text).not.toContain("From IP");
    expect(mail.attachments).toEqual([]);
  });
});

describe("resume checks", () => {
  it("knows a PDF by its first bytes", () => {
    expect(looksLikePdf(Buffer.from("%PDF-1.4\n..."))).toBe(true);
    expect(looksLikePdf(Buffer.from("%PDF"))).toBe(false);
    expect(looksLikePdf(Buffer.from("PK\x03\x04 a docx"))).toBe(false);
  });

  it("keeps only the file's own name, without control characters, at most 255 characters", () => {
    expect(safeResumeName("C:\\Users\\ada\\cv.pdf")).toBe("cv.pdf");
    expect(safeResumeName("../../etc/cv.pdf")).toBe("cv.pdf");
    expect(safeResumeName("cv\r\n.pdf")).toBe("cv.pdf");
    const long = safeResumeName(`${"a".repeat(300)}.pdf`);
    expect(long).toHaveLength(255);
    expect(long.endsWith(".pdf")).toBe(true);
  });
});

describe("createMailer without SMTP_URL", () => {
  const message = {
    to: "hiring@example.com",
    subject: "Hello",
    text: "Body text",
    replyTo: "ada@example.com",
    attachments: [{ filename: "cv.pdf", content: Buffer.alloc(1234), contentType: "application/pdf" }],
  };

  it("writes the message to the log in development: headers, text, attachment names and sizes", async () => {
    const { logger, lines } = capturingLogger();
    await createMailer({ NODE_ENV: "development", SMTP_URL: undefined, MAIL_FROM: "SD <no-reply@example.com>" }, logger).send(message);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      component: "mailer",
      mail: {
        headers: { from: "SD <no-reply@example.com>", to: "hiring@example.com", subject: "Hello", "reply-to": "ada@example.com" },
        text: "Body text",
        attachments: [{ filename: "cv.pdf", contentType: "application/pdf", size: 1234 }],
      },
    });
    expect(JSON.stringify(lines[0])).not.toContain(Buffer.alloc(1234).toString("base64"));
  });

  it("warns in production that mail is not configured, and refuses to pretend a message was sent", async () => {
    const { logger, lines } = capturingLogger();
    const mailer = createMailer({ NODE_ENV: "production", SMTP_URL: undefined, MAIL_FROM: "x@example.com" }, logger);
    expect(lines).toMatchObject([{ level: logLevelNumber("warn"), msg: expect.stringContaining("mail is not configured") as unknown }]);
    await expect(mailer.send(message)).rejects.toBeInstanceOf(MailNotConfiguredError);
    expect(lines[1]).toMatchObject({ level: logLevelNumber("warn"), to: "hiring@example.com", subject: "Hello" });
  });
});
