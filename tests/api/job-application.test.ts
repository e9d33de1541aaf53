import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { JOB_APPLICATION_LIMITS, JOB_APPLICATION_MESSAGES as M } from "@sd/contracts";
import { useEmulator } from "@sd/provider-emulator/testing";
import { testEnv } from "@sd/testing/env";
import { startStack, type InProcessStack } from "@sd/testing/stack";

const HIRING_EMAIL = "hiring@test.smartdecision.ai";
const PATH = "/api/job-application";
const pdf = (bytes = 64): Buffer => Buffer.concat([Buffer.from("%PDF-1.7\n"), Buffer.alloc(Math.max(0, bytes - 9), 0x20)]);

/** A real SMTP server on loopback that parses every message it accepts (or refuses them, on demand). */
class Inbox {
  private readonly received: ParsedMail[] = [];
  private waiters: ((mail: ParsedMail) => void)[] = [];
  private refusedWaiters: (() => void)[] = [];
  refuse = false;
  readonly server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData: (stream, _session, callback) => {
      if (this.refuse) {
        stream.resume();
        stream.on("end", () => {
          callback(Object.assign(new Error("mailbox unavailable"), { responseCode: 550 }));
          for (const resolve of this.refusedWaiters.splice(0)) resolve();
        });
        return;
      }
      simpleParser(stream).then(
        (mail) => {
          callback();
          const waiter = this.waiters.shift();
          if (waiter) waiter(mail);
          else this.received.push(mail);
        },
        (error: Error) => callback(error),
      );
    },
  });

  async listen(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    return (this.server.server.address() as AddressInfo).port;
  }

  /** The next message accepted (or one already waiting). */
  next(): Promise<ParsedMail> {
    const mail = this.received.shift();
    if (mail) return Promise.resolve(mail);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Resolves once the server has refused a message. */
  nextRefusal(): Promise<void> {
    return new Promise((resolve) => this.refusedWaiters.push(resolve));
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(resolve));
  }
}

const emulator = useEmulator();
const inbox = new Inbox();
let stack: InProcessStack;

beforeAll(async () => {
  const port = await inbox.listen();
  stack = await startStack(testEnv(emulator.url, { SMTP_URL: `smtp://127.0.0.1:${port}`, HIRING_EMAIL }));
});
afterAll(async () => {
  await stack?.close();
  await inbox.close();
});
beforeEach(() => {
  inbox.refuse = false;
});

const valid = {
  name: "Ada Lovelace",
  email: "ada@example.com",
  phone: "+44 (20) 7946-0958",
  linkedin: "https://www.linkedin.com/in/ada",
  accomplishment: "Wrote the first published computer program.",
  position: "Software Engineers",
  department: "Engineering",
};

interface Upload {
  field?: string;
  filename: string;
  content: Buffer;
  type?: string;
}

function form(fields: Record<string, string | undefined>, files: Upload[] = []): FormData {
  const body = new FormData();
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) body.append(key, value);
  for (const file of files) body.append(file.field ?? "resume", new Blob([new Uint8Array(file.content)], { type: file.type ?? "application/pdf" }), file.filename);
  return body;
}

async function submit(body: FormData | string, headers: Record<string, string> = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${stack.url}${PATH}`, { method: "POST", body, headers });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("job application rules (the web form's, enforced again by the server)", () => {
  const cases: [string, Record<string, string | undefined>, Upload[], string][] = [
    ["a missing name", { ...valid, name: undefined }, [], M.nameRequired],
    ["a blank name", { ...valid, name: "   " }, [], M.nameRequired],
    ["a missing email", { ...valid, email: undefined }, [], M.emailRequired],
    ["an email without a domain", { ...valid, email: "ada@example" }, [], M.emailInvalid],
    ["an email with a space", { ...valid, email: "ada lovelace@example.com" }, [], M.emailInvalid],
    ["a missing phone", { ...valid, phone: "" }, [], M.phoneRequired],
    ["a phone with letters", { ...valid, phone: "+44 20 CALL ADA" }, [], M.phoneInvalid],
    ["a phone starting with 0", { ...valid, phone: "020 7946 0958" }, [], M.phoneInvalid],
    ["a phone of 17 digits", { ...valid, phone: "+1 2345 6789 0123 4567" }, [], M.phoneInvalid],
    ["a missing LinkedIn profile", { ...valid, linkedin: " " }, [], M.linkedinRequired],
    ["a profile elsewhere than LinkedIn", { ...valid, linkedin: "https://github.com/ada" }, [], M.linkedinInvalid],
    ["a missing accomplishment", { ...valid, accomplishment: undefined }, [], M.accomplishmentRequired],
    ["an accomplishment of 101 characters", { ...valid, accomplishment: "x".repeat(101) }, [], M.accomplishmentTooLong],
    ["a resume whose name does not end in .pdf", valid, [{ filename: "cv.docx", content: pdf() }], M.resumeNotPdf],
    ["a file named .pdf whose bytes are not a PDF", valid, [{ filename: "cv.pdf", content: Buffer.from("MZ\x90\x00 an executable") }], M.resumeNotPdf],
    ["an empty file named .pdf", valid, [{ filename: "cv.pdf", content: Buffer.alloc(0) }], M.resumeNotPdf],
    ["a missing position", { ...valid, position: undefined }, [], M.positionRequired],
    ["a missing department", { ...valid, department: "" }, [], M.departmentRequired],
    ["a position of 201 characters", { ...valid, position: "p".repeat(201) }, [], "Position must be at most 200 characters"],
  ];

  it.each(cases)("refuses %s with 400 and the form's message", async (_name, fields, files, detail) => {
    const before = await stack.store.applications.count();
    const response = await submit(form(fields, files));
    expect(response).toEqual({ status: 400, body: { detail } });
    expect(await stack.store.applications.count()).toBe(before);
  });

  it("answers the first problem in the form's order", async () => {
    const response = await submit(form({ ...valid, name: "", phone: "nope" }));
    expect(response.body.detail).toBe(M.nameRequired);
  });

  it("answers 413 for a resume one byte over 10 MB", async () => {
    const response = await submit(form(valid, [{ filename: "big.pdf", content: pdf(JOB_APPLICATION_LIMITS.maxResumeBytes + 1) }]));
    expect(response).toEqual({ status: 413, body: { detail: M.resumeTooLarge } });
  });

  it("refuses two resume files", async () => {
    const response = await submit(form(valid, [{ filename: "a.pdf", content: pdf() }, { filename: "b.pdf", content: pdf() }]));
    expect(response).toEqual({ status: 400, body: { detail: "Attach one resume file at most." } });
  });

  it("refuses a file in any field but resume", async () => {
    const response = await submit(form(valid, [{ field: "photo", filename: "me.pdf", content: pdf() }]));
    expect(response.status).toBe(400);
    expect(response.body.detail).toBe("Unexpected file field 'photo': only 'resume' may carry a file.");
  });

  it("refuses a field sent twice", async () => {
    const body = form(valid);
    body.append("name", "Someone Else");
    expect(await submit(body)).toEqual({ status: 400, body: { detail: "Send the field 'name' once, as text." } });
  });

  it("refuses a body that is not multipart", async () => {
    const response = await submit(JSON.stringify(valid), { "content-type": "application/json" });
    expect(response).toEqual({ status: 400, body: { detail: "Send the application as multipart/form-data." } });
  });
});

describe("a valid application", () => {
  it("is stored with its resume, and the hiring team receives it by email with the PDF attached", async () => {
    const resume = pdf(2048);
    const response = await submit(form({ ...valid, name: "  Ada Lovelace  " }, [{ filename: "Ada Lovelace – CV.pdf", content: resume }]));
    expect(response.status).toBe(200);
    expect(response.body.message).toBe(M.submitted);
    const id = response.body.application_id as string;

    const stored = await stack.store.applications.findById(id);
    expect(stored).toMatchObject({
      ...valid,
      name: "Ada Lovelace",
      ip: expect.stringMatching(/127\.0\.0\.1/) as unknown,
      resume: { filename: "Ada Lovelace – CV.pdf", content_type: "application/pdf", size: resume.length },
    });
    expect(Buffer.from(stored?.resume?.data_base64 ?? "", "base64").equals(resume)).toBe(true);

    const mail = await inbox.next();
    expect(mail.to).toMatchObject({ text: HIRING_EMAIL });
    expect(mail.replyTo).toMatchObject({ text: valid.email });
    expect(mail.subject).toBe("Job application: Software Engineers (Engineering) - Ada Lovelace");
    expect(mail.text).toContain(valid.accomplishment);
    expect(mail.text).toContain(valid.linkedin);
    expect(mail.text).toContain(id);
    expect(mail.attachments).toHaveLength(1);
    const [attachment] = mail.attachments;
    expect(attachment?.filename).toBe("Ada Lovelace – CV.pdf");
    expect(attachment?.contentType).toBe("application/pdf");
    expect(attachment?.content.equals(resume)).toBe(true);
  });

  it("is accepted without a resume, and with a resume of exactly 10 MB", async () => {
    const without = await submit(form(valid));
    expect(without.status).toBe(200);
    expect((await stack.store.applications.findById(without.body.application_id as string))?.resume).toBeNull();
    expect((await inbox.next()).attachments).toHaveLength(0);

    const exact = await submit(form(valid, [{ filename: "CV.PDF", content: pdf(JOB_APPLICATION_LIMITS.maxResumeBytes) }]));
    expect(exact.status).toBe(200);
    expect((await stack.store.applications.findById(exact.body.application_id as string))?.resume?.size).toBe(JOB_APPLICATION_LIMITS.maxResumeBytes);
    expect((await inbox.next()).attachments[0]?.size).toBe(JOB_APPLICATION_LIMITS.maxResumeBytes);
  });

  it("is kept when the mail server refuses the notification", async () => {
    inbox.refuse = true;
    const refused = inbox.nextRefusal();
    const response = await submit(form(valid, [{ filename: "cv.pdf", content: pdf() }]));
    expect(response.status).toBe(200);
    await refused;
    expect(await stack.store.applications.findById(response.body.application_id as string)).toMatchObject({ name: valid.name });
  });
});
