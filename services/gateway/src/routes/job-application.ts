import { Router, type RequestHandler } from "express";
import type { GatewayEnv } from "@sd/config";
import type { Store } from "@sd/store";
import type { Logger } from "@sd/telemetry";
import type { Mailer } from "../mail/mailer";

/** POST /api/job-application: multipart application with an optional PDF resume. */
export function jobApplicationRoutes(_store: Store, _mailer: Mailer, _env: GatewayEnv, _rateLimit: RequestHandler, _logger: Logger): Router {
  return Router();
}
