import { Router, type RequestHandler } from "express";
import type { Store } from "@sd/store";

/** POST /api/email-request: join the waitlist. */
export function waitlistRoutes(_store: Store, _rateLimit: RequestHandler): Router {
  return Router();
}
