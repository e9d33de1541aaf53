import { z } from "zod";

/** Answer of POST /api/email-request: `{success, message}`, also for a refused email. */
export const WaitlistResponseSchema = z.object({ success: z.boolean(), message: z.string() });
export type WaitlistResponse = z.infer<typeof WaitlistResponseSchema>;
