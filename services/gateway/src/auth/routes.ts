import { Router, type Request, type RequestHandler } from "express";
import { ipKeyGenerator } from "express-rate-limit";
import {
  AUTH_MESSAGES,
  GoogleCallbackSchema,
  MagicLinkRequestSchema,
  MagicLinkVerifySchema,
  RefreshRequestSchema,
  type AdminCheckResponse,
  type AuthResponse,
  type AuthTokens,
} from "@sd/contracts";
import type { Redis } from "@sd/queue";
import type { Store } from "@sd/store";
import type { Logger } from "@sd/telemetry";
import { HttpError } from "../http/errors";
import { smallJsonBody } from "../http/json-body";
import { perIpRateLimit, perKeyRateLimit } from "../http/rate-limit";
import { parseBody } from "../http/validate";
import type { GoogleSignIn } from "./google-oidc";
import type { MagicLinks } from "./magic-link";
import { signedInUser, type BearerAuth } from "./middleware";
import type { Sessions } from "./sessions";
import { hashToken } from "./tokens";

const HOUR = 60 * 60_000;

/** The client's address as the limits count it: an IPv6 client by its /56, which one household or server holds whole. */
const clientOf = (req: Request) => ipKeyGenerator(req.ip ?? "unknown");

export interface AuthRouteDeps {
  store: Store;
  redis: Redis;
  keyPrefix: string;
  magicLinks: MagicLinks;
  google: GoogleSignIn;
  sessions: Sessions;
  bearer: BearerAuth;
  isAdmin: (email: string) => boolean;
  limits: { perMinutePerIp: number; magicLinksPerEmailAndIpPerHour: number; magicLinksPerIpPerHour: number; magicLinksPerEmailPerHour: number };
  logger: Logger;
}

/**
 * /api/auth/*: magic-link and Google sign-in, token refresh, logout and the admin check.
 * Sign-in answers `{user, tokens}`; errors are `{detail}`.
 */
export function authRoutes(deps: AuthRouteDeps): Router {
  const { store, redis, keyPrefix, magicLinks, google, sessions, bearer, limits, logger } = deps;
  const router = Router();
  const perIp = perIpRateLimit(redis, keyPrefix, "auth", limits.perMinutePerIp);
  // Sign-in links are counted three ways, so that nobody can use up another person's: per address
  // and IP (what the owner's own retries meet; a stranger elsewhere has counts of their own), per
  // IP (one client spraying many inboxes), and per address from everywhere (a flood of one inbox
  // from many IPs; one IP cannot reach it, its per-address-and-IP count stops it first).
  const magicLinkPerIp = perIpRateLimit(redis, keyPrefix, "magic-link-ip", limits.magicLinksPerIpPerHour, HOUR);
  const tooManyLinks = "Too many sign-in links were requested for this email address. Please wait an hour and try again.";
  const magicLinkPerEmailAndIp = perKeyRateLimit(
    redis,
    keyPrefix,
    "magic-link-email-ip",
    limits.magicLinksPerEmailAndIpPerHour,
    HOUR,
    (req, res) => hashToken(`${String(res.locals.signInEmail)}\n${clientOf(req)}`),
    tooManyLinks,
  );
  const magicLinkPerEmail = perKeyRateLimit(redis, keyPrefix, "magic-link-email", limits.magicLinksPerEmailPerHour, HOUR, (_req, res) => hashToken(String(res.locals.signInEmail)), tooManyLinks);
  // An IP the account signed in from before is not held back by a flood from elsewhere: the
  // owner at home still gets a link (their own per-address-and-IP count still applies).
  const magicLinkCeiling: RequestHandler = async (req, res, next) => {
    if (await magicLinks.signedInFrom(String(res.locals.signInEmail), clientOf(req))) return next();
    return magicLinkPerEmail(req, res, next);
  };
  const googleConfigured: RequestHandler = (_req, _res, next) => next(google.configured ? undefined : new HttpError(503, AUTH_MESSAGES.googleNotConfigured));
  const readEmail: RequestHandler = (req, res, next) => {
    res.locals.signInEmail = parseBody(MagicLinkRequestSchema, req).email;
    next();
  };

  router.post("/auth/magic-link/request", perIp, magicLinkPerIp, smallJsonBody, readEmail, magicLinkPerEmailAndIp, magicLinkCeiling, async (_req, res) => {
    const email = res.locals.signInEmail as string;
    try {
      await magicLinks.send(email);
    } catch (error) {
      logger.error({ err: error }, "sign-in link not sent");
      throw new HttpError(503, AUTH_MESSAGES.magicLinkMailFailed);
    }
    // The same answer for every address: it tells nothing about who has an account.
    res.json({ message: AUTH_MESSAGES.magicLinkSent });
  });

  router.post("/auth/magic-link/verify", perIp, smallJsonBody, async (req, res) => {
    const { token } = parseBody(MagicLinkVerifySchema, req);
    const email = await magicLinks.consume(token);
    if (email === null) throw new HttpError(400, AUTH_MESSAGES.invalidMagicLink);
    const user = await store.users.signInWithEmail(email);
    logger.info({ user_id: user.id, method: "magic-link" }, "signed in");
    const signedIn = await sessions.start(user);
    // Only spares this IP the per-address ceiling later: not worth failing the sign-in for.
    await magicLinks.rememberSignIn(email, clientOf(req)).catch((error: unknown) => logger.warn({ err: error }, "could not remember the sign-in's address"));
    res.json(signedIn satisfies AuthResponse);
  });

  router.get("/auth/google/authorize", perIp, async (_req, res) => {
    if (!google.configured) throw new HttpError(503, AUTH_MESSAGES.googleNotConfigured);
    res.json(await google.authorize());
  });

  router.post("/auth/google/callback", perIp, googleConfigured, smallJsonBody, async (req, res) => {
    const profile = await google.callback(parseBody(GoogleCallbackSchema, req));
    const user = await store.users.signInWithGoogle(profile);
    logger.info({ user_id: user.id, method: "google" }, "signed in");
    res.json((await sessions.start(user)) satisfies AuthResponse);
  });

  router.post("/auth/refresh", perIp, smallJsonBody, async (req, res) => {
    const { refresh_token } = parseBody(RefreshRequestSchema, req);
    const tokens = await sessions.refresh(refresh_token);
    if (!tokens) throw new HttpError(401, AUTH_MESSAGES.invalidRefreshToken);
    res.json(tokens satisfies AuthTokens);
  });

  router.post("/auth/logout", bearer.requireUser, async (_req, res) => {
    const user = signedInUser(res);
    await sessions.end(user.sessionId);
    logger.info({ user_id: user.userId }, "signed out");
    res.json({ message: AUTH_MESSAGES.signedOut });
  });

  router.get("/auth/admin-check", bearer.requireUser, (_req, res) => {
    res.json({ is_admin: deps.isAdmin(signedInUser(res).email) } satisfies AdminCheckResponse);
  });

  return router;
}
