import { Router, type RequestHandler } from "express";
import { z } from "zod";
import { EMAIL_MESSAGES, EmailSchema } from "@sd/contracts";
import type { Store } from "@sd/store";
import { smallJsonBody } from "../http/json-body";

/** Texts of the waitlist answer `{success, message}` (the form shows `message`). */
export const WAITLIST_MESSAGES = {
  joined: "Thanks for joining the waitlist! We'll email you as soon as your access is ready.",
  alreadyJoined: "You're already on the waitlist. We'll be in touch soon!",
} as const;

const WaitlistRequestSchema = z.object({ email: EmailSchema });

/** POST /api/email-request: join the waitlist with `{email}`; answers `{success, message}`. */
export function waitlistRoutes(store: Store, rateLimit: RequestHandler): Router {
  const router = Router();
  router.post("/email-request", rateLimit, smallJsonBody, async (req, res) => {
    // A missing or non-object body is treated like a missing email.
    const body: unknown = typeof req.body === "object" && req.body !== null && !Array.isArray(req.body) ? req.body : {};
    const parsed = WaitlistRequestSchema.safeParse(body);
    if (!parsed.success) {
      res.status(400).json({ success: false, message: parsed.error.issues[0]?.message ?? EMAIL_MESSAGES.invalid });
      return;
    }
    const added = await store.waitlist.join(parsed.data.email, req.ip ?? null);
    res.json({ success: true, message: added ? WAITLIST_MESSAGES.joined : WAITLIST_MESSAGES.alreadyJoined });
  });
  return router;
}
