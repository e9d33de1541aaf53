import { z } from "zod";
import { EmailSchema } from "./email";

/** Texts of the waitlist answer `{success, message}` (the form shows `message`). */
export const WAITLIST_MESSAGES = {
  joined: "Thanks for joining the waitlist! We'll email you as soon as your access is ready.",
  alreadyJoined: "You're already on the waitlist. We'll be in touch soon!",
} as const;

/** POST /api/email-request. */
export const WaitlistRequestSchema = z.object({ email: EmailSchema });

/** Answer of POST /api/email-request: `{success, message}`, also for a refused email. */
export const WaitlistResponseSchema = z.object({ success: z.boolean(), message: z.string() });
export type WaitlistResponse = z.infer<typeof WaitlistResponseSchema>;
