import { createTransport } from "nodemailer";
import type { GatewayEnv } from "@sd/config";
import type { Logger } from "@sd/telemetry";

export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** Where answers go (e.g. the applicant), when not to the sender. */
  replyTo?: string;
  attachments?: MailAttachment[];
}

/** Sends product mail (hiring notifications now, magic links later). */
export interface Mailer {
  /** Resolves once the message is handed over; rejects when it could not be. */
  send(message: MailMessage): Promise<void>;
}

/** Thrown by `send` in production when SMTP_URL is unset. */
export class MailNotConfiguredError extends Error {
  constructor() {
    super("mail is not configured: set SMTP_URL");
    this.name = "MailNotConfiguredError";
  }
}

type MailEnv = Pick<GatewayEnv, "SMTP_URL" | "MAIL_FROM" | "NODE_ENV">;

/**
 * With SMTP_URL: a real SMTP transport. Without it: in development and test every message is
 * written to the log instead; in production a warning says mail is not configured, and sending fails.
 */
export function createMailer(env: MailEnv, logger: Logger): Mailer {
  const log = logger.child({ component: "mailer" });
  if (env.SMTP_URL) return smtpMailer(env.SMTP_URL, env.MAIL_FROM, log);
  if (env.NODE_ENV === "production") {
    log.warn("mail is not configured (SMTP_URL is unset): no mail will be sent");
    return {
      async send(message) {
        log.warn({ to: message.to, subject: message.subject }, "mail not sent: SMTP_URL is unset");
        throw new MailNotConfiguredError();
      },
    };
  }
  return loggingMailer(env.MAIL_FROM, log);
}

function smtpMailer(url: string, from: string, log: Logger): Mailer {
  // Bounded waits, so an unresponsive server cannot hold a send for minutes.
  const transport = createTransport({ url, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 }, { from });
  return {
    async send(message) {
      const info = await transport.sendMail({
        to: message.to,
        subject: message.subject,
        text: message.text,
        replyTo: message.replyTo,
        attachments: message.attachments?.map(({ filename, content, contentType }) => ({ filename, content, contentType })),
      });
      log.info({ to: message.to, subject: message.subject, messageId: info.messageId }, "mail sent");
    },
  };
}

/** Development without SMTP: the message's headers, text and attachment names and sizes go to the log. */
function loggingMailer(from: string, log: Logger): Mailer {
  return {
    async send(message) {
      log.info(
        {
          mail: {
            headers: { from, to: message.to, subject: message.subject, ...(message.replyTo ? { "reply-to": message.replyTo } : {}) },
            text: message.text,
            attachments: (message.attachments ?? []).map((a) => ({ filename: a.filename, contentType: a.contentType, size: a.content.length })),
          },
        },
        "mail not sent (SMTP_URL is unset); logged instead",
      );
    },
  };
}
