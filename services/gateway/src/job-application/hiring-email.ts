import type { MailMessage } from "../mail/mailer";
import type { ReceivedApplication } from "./read-application";

export interface StoredApplicationRef {
  id: string;
  receivedAt: Date;
  ip: string | null;
}

/** Header values on one line (a name or position must not start a new header). */
// eslint-disable-next-line no-control-regex
const oneLine = (value: string): string => value.replace(/[\u0000-\u001f\u007f]+/g, " ").trim();

const kilobytes = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;

/** The notification the hiring team receives for one application, with the resume attached. */
export function hiringEmail(to: string, application: ReceivedApplication, ref: StoredApplicationRef): MailMessage {
  const { resume } = application;
  const text = [
    `New application for ${application.position} (${application.department}).`,
    "",
    `Name: ${application.name}`,
    `Email: ${application.email}`,
    `Phone: ${application.phone}`,
    `LinkedIn: ${application.linkedin}`,
    "",
    "Most incredible accomplishment:",
    application.accomplishment,
    "",
    `Resume: ${resume ? `${resume.filename} (${kilobytes(resume.content.length)}), attached` : "none"}`,
    "",
    `Application id: ${ref.id}`,
    `Received: ${ref.receivedAt.toISOString()}`,
    ...(ref.ip ? [`From IP: ${ref.ip}`] : []),
    "",
    "Reply to this email to answer the applicant. We promise applicants an answer within 2-3 business days.",
  ].join("\n");
  return {
    to,
    subject: oneLine(`Job application: ${application.position} (${application.department}) - ${application.name}`),
    text,
    replyTo: oneLine(application.email),
    attachments: resume ? [{ filename: resume.filename, content: resume.content, contentType: "application/pdf" }] : [],
  };
}
