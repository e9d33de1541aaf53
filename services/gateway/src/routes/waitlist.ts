import type { RequestHandler, Router } from "express";
import { EMAIL_MESSAGES, WAITLIST_MESSAGES, WaitlistRequestSchema } from "@sd/contracts";
import { ENDPOINTS } from "@sd/contracts/endpoints";
import type { Store } from "@sd/store";
import { EndpointRouter } from "../http/endpoint-router";

/** Join the waitlist with `{email}`; every answer, a refusal too, is `{success, message}`. */
export function waitlistRoutes(store: Store, rateLimit: RequestHandler): Router {
  return new EndpointRouter("/api").mount(ENDPOINTS.joinWaitlist, {
    before: [rateLimit],
    rawBody: true,
    handler: async ({ req, res }) => {
      // A missing or non-object body is treated like a missing email.
      const body: unknown = typeof req.body === "object" && req.body !== null && !Array.isArray(req.body) ? req.body : {};
      const parsed = WaitlistRequestSchema.safeParse(body);
      if (!parsed.success) {
        res.status(400).json({ success: false, message: parsed.error.issues[0]?.message ?? EMAIL_MESSAGES.invalid });
        return;
      }
      const added = await store.waitlist.join(parsed.data.email, req.ip ?? null);
      return { status: 200, body: { success: true, message: added ? WAITLIST_MESSAGES.joined : WAITLIST_MESSAGES.alreadyJoined } };
    },
  }).router;
}
