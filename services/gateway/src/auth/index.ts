import type { RequestHandler, Router } from "express";
import { publicUrlOf, type GatewayEnv } from "@sd/config";
import type { Redis } from "@sd/queue";
import type { Store } from "@sd/store";
import type { Logger } from "@sd/telemetry";
import type { Mailer } from "../mail/mailer";
import { GoogleSignIn } from "./google-oidc";
import { MagicLinks } from "./magic-link";
import { bearerAuth, type BearerAuth } from "./middleware";
import { perKeyRateLimit } from "../http/rate-limit";
import { currentUser } from "./middleware";
import { authRoutes } from "./routes";
import { Sessions } from "./sessions";
import { AccessTokens } from "./tokens";

export { currentUser, signedInUser, type BearerAuth, type VerifiedAccess } from "./middleware";
export { ACCESS_TOKEN_AUDIENCE, ACCESS_TOKEN_ISSUER } from "./tokens";
export { resolveJwtSecret } from "./secrets";

export interface Auth extends BearerAuth {
  routes: Router;
  /** Server-side admin role: the email is in ADMIN_EMAILS. */
  isAdmin(email: string): boolean;
  /** True once the session (refresh family) was signed out or revoked. */
  isSessionEnded(sessionId: string): Promise<boolean>;
  /** RATE_LIMIT_PER_MINUTE per signed-in user (after `requireUser`). */
  perUserLimit: RequestHandler;
}

export interface AuthDeps {
  env: GatewayEnv;
  store: Store;
  redis: Redis;
  mailer: Mailer;
  logger: Logger;
  /** The access-token key, from `resolveJwtSecret`. */
  jwtSecret: string;
  /** Disconnects the live sockets of an ended session, on every gateway (see LiveEvents.endSession). */
  endSessionSockets: (sessionId: string) => void;
}

/** Accounts: sign-in (magic link, Google), sessions, bearer middleware and the admin role. */
export function createAuth({ env, store, redis, mailer, logger, jwtSecret, endSessionSockets }: AuthDeps): Auth {
  const log = logger.child({ component: "auth" });
  // Unset, links point where this gateway listens (PORT), which is right on the machine itself.
  const publicUrl = publicUrlOf(env);
  if (!env.PUBLIC_URL && env.NODE_ENV === "production") {
    log.warn({ publicUrl }, "PUBLIC_URL is unset: sign-in links and the Google redirect point at the default");
  }
  const access = new AccessTokens(jwtSecret, env.ACCESS_TOKEN_TTL_SECONDS);
  const sessions = new Sessions(store, redis, env.QUEUE_PREFIX, access, env.REFRESH_TOKEN_TTL_DAYS, log, endSessionSockets);
  const bearer = bearerAuth(access, sessions);
  const admins = new Set(env.ADMIN_EMAILS);
  const isAdmin = (email: string) => admins.has(email.trim().toLowerCase());
  const google = new GoogleSignIn(
    {
      issuer: env.GOOGLE_ISSUER,
      clientId: env.GOOGLE_CLIENT_ID,
      clientSecret: env.GOOGLE_CLIENT_SECRET,
      redirectUri: `${publicUrl}/auth/callback`,
    },
    redis,
    env.QUEUE_PREFIX,
    log,
  );
  const routes = authRoutes({
    store,
    redis,
    keyPrefix: env.QUEUE_PREFIX,
    magicLinks: new MagicLinks(redis, env.QUEUE_PREFIX, mailer, publicUrl, env.MAGIC_LINK_TTL_SECONDS, env.REFRESH_TOKEN_TTL_DAYS),
    google,
    sessions,
    bearer,
    isAdmin,
    limits: {
      perMinutePerIp: env.RATE_LIMIT_PER_MINUTE,
      magicLinksPerEmailAndIpPerHour: env.MAGIC_LINK_PER_EMAIL_AND_IP_PER_HOUR,
      magicLinksPerIpPerHour: env.MAGIC_LINK_PER_IP_PER_HOUR,
      magicLinksPerEmailPerHour: env.MAGIC_LINK_PER_EMAIL_PER_HOUR,
    },
    logger: log,
  });
  const perUserLimit = perKeyRateLimit(
    redis,
    env.QUEUE_PREFIX,
    "user",
    env.RATE_LIMIT_PER_MINUTE,
    60_000,
    (_req, res) => currentUser(res)?.userId ?? "anonymous",
    "Too many requests. Please wait a minute and try again.",
  );
  return { ...bearer, routes, isAdmin, perUserLimit, isSessionEnded: (sessionId) => sessions.isEnded(sessionId) };
}
