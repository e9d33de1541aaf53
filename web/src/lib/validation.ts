import { EMAIL_MESSAGES } from "@sd/contracts";

/** 'Email required' / 'Please enter your email address.' (sign-in and waitlist). */
export const EMAIL_REQUIRED = { title: EMAIL_MESSAGES.required.title, description: EMAIL_MESSAGES.required.detail } as const;

/** The trimmed email, or null when it is blank. */
export function trimmedEmail(value: string): string | null {
  const email = value.trim();
  return email === "" ? null : email;
}
