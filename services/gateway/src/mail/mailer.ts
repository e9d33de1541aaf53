import type { GatewayEnv } from "@sd/config";
import type { Logger } from "@sd/telemetry";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  attachments?: { filename: string; content: Buffer; contentType: string }[];
}

/** Sends product mail (hiring notifications now, magic links later). */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

// Filled in with nodemailer (SMTP_URL; logged in development without SMTP).
export function createMailer(_env: GatewayEnv, _logger: Logger): Mailer {
  return {
    async send() {
      throw new Error("mail is not set up yet");
    },
  };
}
