import { z } from "zod";

/** Sign-in and waitlist email texts. */
export const EMAIL_MESSAGES = {
  required: { title: "Email required", detail: "Please enter your email address." },
  invalid: "Please enter a valid email address.",
} as const;

/** Longest address SMTP delivers (RFC 5321 path limit). */
const MAX_EMAIL_LENGTH = 254;

/** An email from a form: trimmed and required ('Please enter your email address.'), then checked. */
export const EmailSchema = z
  .string({
    error: (issue) => (issue.input === undefined || issue.input === null ? EMAIL_MESSAGES.required.detail : EMAIL_MESSAGES.invalid),
  })
  .trim()
  .min(1, EMAIL_MESSAGES.required.detail)
  .max(MAX_EMAIL_LENGTH, EMAIL_MESSAGES.invalid)
  .pipe(z.email({ error: EMAIL_MESSAGES.invalid }));
