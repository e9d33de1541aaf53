import type { Request, RequestHandler, Router } from "express";
import { ipKeyGenerator } from "express-rate-limit";
import { AUTH_MESSAGES, MagicLinkRequestSchema } from "@sd/contracts";
import { ENDPOINTS } from "@sd/contracts/endpoints";
import type { Redis } from "@sd/queue";
import type { Store } from "@sd/store";
import type { Logger } from "@sd/telemetry";
import { EndpointRouter } from "../http/endpoint-router";
import { HttpError } from "../http/errors";
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

  return new EndpointRouter("/api", { bearer: bearer.requireUser })
    .mount(ENDPOINTS.requestMagicLink, {
      before: [perIp, magicLinkPerIp],
      afterBody: [readEmail, magicLinkPerEmailAndIp, magicLinkCeiling],
      handler: async ({ body }) => {
        try {
          await magicLinks.send(body.email);
        } catch (error) {
          logger.error({ err: error }, "sign-in link not sent");
          throw new HttpError(503, AUTH_MESSAGES.magicLinkMailFailed);
        }
        // The same answer for every address: it tells nothing about who has an account.
        return { status: 200, body: { message: AUTH_MESSAGES.magicLinkSent } };
      },
    })
    .mount(ENDPOINTS.verifyMagicLink, {
      before: [perIp],
      handler: async ({ body, req }) => {
        const email = await magicLinks.consume(body.token);
        if (email === null) throw new HttpError(400, AUTH_MESSAGES.invalidMagicLink);
        const user = await store.users.signInWithEmail(email);
        logger.info({ user_id: user.id, method: "magic-link" }, "signed in");
        const signedIn = await sessions.start(user);
        // Only spares this IP the per-address ceiling later: not worth failing the sign-in for.
        await magicLinks.rememberSignIn(email, clientOf(req)).catch((error: unknown) => logger.warn({ err: error }, "could not remember the sign-in's address"));
        return { status: 200, body: signedIn };
      },
    })
    .mount(ENDPOINTS.authorizeGoogle, {
      before: [perIp, googleConfigured],
      handler: async () => ({ status: 200, body: await google.authorize() }),
    })
    .mount(ENDPOINTS.completeGoogleSignIn, {
      before: [perIp, googleConfigured],
      handler: async ({ body }) => {
        const user = await store.users.signInWithGoogle(await google.callback(body));
        logger.info({ user_id: user.id, method: "google" }, "signed in");
        return { status: 200, body: await sessions.start(user) };
      },
    })
    .mount(ENDPOINTS.refreshTokens, {
      before: [perIp],
      handler: async ({ body }) => {
        const tokens = await sessions.refresh(body.refresh_token);
        if (!tokens) throw new HttpError(401, AUTH_MESSAGES.invalidRefreshToken);
        return { status: 200, body: tokens };
      },
    })
    .mount(ENDPOINTS.logout, {
      handler: async ({ res }) => {
        const user = signedInUser(res);
        await sessions.end(user.sessionId);
        logger.info({ user_id: user.userId }, "signed out");
        return { status: 200, body: { message: AUTH_MESSAGES.signedOut } };
      },
    })
    .mount(ENDPOINTS.adminCheck, {
      handler: ({ res }) => ({ status: 200, body: { is_admin: deps.isAdmin(signedInUser(res).email) } }),
    }).router;
}
