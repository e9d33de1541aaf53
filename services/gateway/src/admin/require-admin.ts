import type { RequestHandler } from "express";
import { ADMIN_MESSAGES } from "@sd/contracts";
import { signedInUser } from "../auth";
import { HttpError } from "../http/errors";

/**
 * After `requireUser`: only admins pass (their email is in ADMIN_EMAILS), checked on the server
 * for every call — the web app's own admin check only decides what it shows. A signed-in
 * non-admin gets 403 `Admin access required.`; no or a bad token was already a 401.
 */
export function requireAdmin(isAdmin: (email: string) => boolean): RequestHandler {
  return (_req, res, next) => {
    if (!isAdmin(signedInUser(res).email)) throw new HttpError(403, ADMIN_MESSAGES.forbidden);
    next();
  };
}
