import { createRequire } from "node:module";
import { ExpressAdapter } from "@bull-board/express";
import { Router, type Express, type Request, type RequestHandler } from "express";
import jwt from "jsonwebtoken";
import { ADMIN_MESSAGES } from "@sd/contracts";
import { ENDPOINTS } from "@sd/contracts/endpoints";
import { attachQueueBoard, type Redis } from "@sd/queue";
import { requireAdmin } from "../admin";
import { ACCESS_TOKEN_ISSUER, signedInUser } from "../auth";
import { unauthorized } from "../auth/middleware";
import { EndpointRouter } from "../http/endpoint-router";
import { routeLabel } from "../http/observability";
import { HttpError } from "../http/errors";
import { refuseCompressedBody } from "../http/json-body";

/** Where the queue view is mounted, and the only path its session cookie is sent to. */
export const QUEUES_PATH = "/admin/queues";
export const QUEUES_COOKIE = "sd_queues_session";
/** The queue view's session lasts at most this long (and never longer than the access token it was minted from). */
export const QUEUES_SESSION_SECONDS = 10 * 60;
/** Its own audience: a queue session is no access token, and an access token is no queue session. */
const QUEUES_AUDIENCE = "smart-decision-queues";

/**
 * The board's own Content-Security-Policy: its scripts, styles and images from this origin only
 * (served from node_modules, no CDN), the inline styles its loading screen and components use,
 * the `<base href>` its template sets, and API calls to this origin.
 */
export const QUEUES_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'self'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

export interface QueueViewDeps {
  redis: Redis;
  prefix: string;
  providers: readonly string[];
  jwtSecret: string;
  requireUser: RequestHandler;
  isAdmin(email: string): boolean;
  /** True when the sign-in session the queue session came from was ended (sign-out, stolen refresh token). */
  sessionEnded(sessionId: string): Promise<boolean>;
  /** Admins may clean, retry and remove jobs (never those of a decision in flight); read-only by default. */
  writable?: boolean;
}

export interface QueueView {
  /** POST /api/admin/queues-session, to mount under /api. */
  sessionRoutes: Router;
  /** The board at /admin/queues, behind the session cookie. */
  board: Router;
  close(): Promise<void>;
}

interface QueueSessionClaims {
  userId: string;
  email: string;
  sessionId: string;
}

/**
 * Bull Board for operators. The web app holds a bearer token, which a page navigation cannot
 * send, so an admin's token is exchanged (POST /api/admin/queues-session) for a short-lived,
 * HttpOnly, SameSite=Strict cookie scoped to /admin/queues, holding a JWT with its own audience.
 * Every board request re-checks the cookie, the sign-in session and the admin role.
 */
export function queueView(deps: QueueViewDeps): QueueView {
  const server = new ExpressAdapter();
  server.setBasePath(QUEUES_PATH);
  const queues = attachQueueBoard(server, deps.redis, deps.prefix, deps.providers, { writable: deps.writable === true });
  renderWithoutWebFonts(server);

  const sessionRoutes = new EndpointRouter("/api", { bearer: deps.requireUser }).mount(ENDPOINTS.adminQueuesSession, {
    after: [requireAdmin(deps.isAdmin)],
    handler: ({ req, res }) => {
      const user = signedInUser(res);
      const accessExpiry = accessTokenExpiry(req);
      const remaining = accessExpiry === null ? QUEUES_SESSION_SECONDS : Math.floor(accessExpiry - Date.now() / 1000);
      const expiresIn = Math.max(1, Math.min(QUEUES_SESSION_SECONDS, remaining));
      const token = jwt.sign({ email: user.email, sid: user.sessionId }, deps.jwtSecret, {
        algorithm: "HS256",
        expiresIn,
        issuer: ACCESS_TOKEN_ISSUER,
        audience: QUEUES_AUDIENCE,
        subject: user.userId,
      });
      res.cookie(QUEUES_COOKIE, token, {
        httpOnly: true,
        sameSite: "strict",
        secure: req.secure,
        path: QUEUES_PATH,
        maxAge: expiresIn * 1000,
      });
      return { status: 200, body: { url: `${QUEUES_PATH}/`, expires_in: expiresIn } };
    },
  }).router;

  const guard: RequestHandler = async (req, res, next) => {
    const claims = verifySession(cookieValue(req, QUEUES_COOKIE), deps.jwtSecret);
    if (!claims || (await deps.sessionEnded(claims.sessionId))) throw unauthorized();
    if (!deps.isAdmin(claims.email)) throw new HttpError(403, ADMIN_MESSAGES.forbidden);
    // Replaces the site-wide policy for the board's responses only.
    res.setHeader("Content-Security-Policy", QUEUES_CSP);
    res.setHeader("Cache-Control", "no-store");
    next();
  };
  const board = Router();
  board.use(QUEUES_PATH, routeLabel(`${QUEUES_PATH}/*`), guard, refuseCompressedBody, server.getRouter() as RequestHandler);
  return {
    sessionRoutes,
    board,
    close: () => queues.close(),
  };
}

/** The `exp` of the request's bearer token (already verified by requireUser), in seconds. */
function accessTokenExpiry(req: Request): number | null {
  const token = /^Bearer[ ]+(\S+)/i.exec(req.headers.authorization ?? "")?.[1];
  const decoded = token ? jwt.decode(token) : null;
  return decoded !== null && typeof decoded === "object" && typeof decoded.exp === "number" ? decoded.exp : null;
}

function cookieValue(req: Request, name: string): string | null {
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const separator = part.indexOf("=");
    if (separator > 0 && part.slice(0, separator).trim() === name) return decodedOrNull(part.slice(separator + 1).trim());
  }
  return null;
}

/** A malformed percent-escape is a bad cookie (answered 401 like any other), not a server error. */
function decodedOrNull(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}

function verifySession(token: string | null, secret: string): QueueSessionClaims | null {
  if (!token) return null;
  try {
    const payload = jwt.verify(token, secret, { algorithms: ["HS256"], issuer: ACCESS_TOKEN_ISSUER, audience: QUEUES_AUDIENCE });
    if (typeof payload !== "object") return null;
    const { sub, email, sid } = payload as jwt.JwtPayload & { email?: unknown; sid?: unknown };
    if (typeof sub !== "string" || typeof email !== "string" || typeof sid !== "string") return null;
    return { userId: sub, email, sessionId: sid };
  } catch {
    return null;
  }
}

type RenderCallback = (error: Error | null, html?: string) => void;
const WEB_FONTS_LINK = /<link[^>]+fonts\.googleapis\.com[^>]*>/g;

/**
 * Bull Board's page without its Google Fonts stylesheet: every asset of the queue view comes from
 * this server (the board falls back to the system fonts). The page is rendered by the board's own
 * template engine and the link removed from the result, so no edited copy of the template is
 * written anywhere (a copy on disk would outlive a process that is killed).
 */
function renderWithoutWebFonts(server: ExpressAdapter): void {
  const boardRequire = createRequire(createRequire(import.meta.url).resolve("@bull-board/express"));
  const ejs = boardRequire("ejs") as { renderFile(path: string, data: object, callback: RenderCallback): void };
  (server.getRouter() as Express).engine("ejs", (path: string, options: object, callback: RenderCallback) =>
    ejs.renderFile(path, options, (error, html) => callback(error, html?.replace(WEB_FONTS_LINK, ""))),
  );
}
