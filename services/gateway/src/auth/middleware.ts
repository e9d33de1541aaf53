import type { Request, RequestHandler, Response } from "express";
import { AUTH_MESSAGES } from "@sd/contracts";
import { HttpError } from "../http/errors";
import type { Sessions } from "./sessions";
import type { AccessClaims, AccessTokens } from "./tokens";

/** The signed-in caller, set by `requireUser` / `optionalUser`. */
export function currentUser(res: Response): AccessClaims | null {
  return (res.locals.user as AccessClaims | undefined) ?? null;
}

/** Like `currentUser`, for handlers behind `requireUser`. */
export function signedInUser(res: Response): AccessClaims {
  const user = currentUser(res);
  if (!user) throw unauthorized();
  return user;
}

export function unauthorized(): HttpError {
  return new HttpError(401, AUTH_MESSAGES.invalidCredentials);
}

/** The bearer token of a request: undefined without an Authorization header, null for one that is not a bearer token. */
function bearerToken(req: Request): string | null | undefined {
  const header = req.headers.authorization;
  if (header === undefined) return undefined;
  const match = /^Bearer[ ]+([^\s]+)\s*$/i.exec(header);
  return match ? match[1]! : null;
}

/** A valid access token's claims, and when it expires (for connections that outlive a request, like a socket). */
export interface VerifiedAccess extends AccessClaims {
  expiresAt: Date;
}

export interface BearerAuth {
  /** 401 `Could not validate credentials` for a missing, malformed, expired or revoked token. */
  requireUser: RequestHandler;
  /** Signs the caller in when a token is sent; without one the request goes on anonymously; a bad one is a 401. */
  optionalUser: RequestHandler;
  /**
   * The check both handlers make (signature, algorithm, issuer, audience, expiry, ended session),
   * for callers outside HTTP: the claims of a token they would accept, else null.
   */
  verifyAccessToken(token: string): Promise<VerifiedAccess | null>;
}

export function bearerAuth(tokens: AccessTokens, sessions: Sessions): BearerAuth {
  const verifyAccessToken = async (token: string): Promise<VerifiedAccess | null> => {
    const access = tokens.verify(token);
    if (!access || (await sessions.isEnded(access.sessionId))) return null;
    return access;
  };
  const authenticate = async (token: string): Promise<AccessClaims> => {
    const access = await verifyAccessToken(token);
    if (!access) throw unauthorized();
    const { expiresAt: _expiresAt, ...claims } = access;
    return claims;
  };
  const challenge = (res: Response) => res.setHeader("WWW-Authenticate", 'Bearer realm="smart-decision"');
  return {
    verifyAccessToken,
    requireUser: async (req, res, next) => {
      const token = bearerToken(req);
      if (!token) {
        challenge(res);
        throw unauthorized();
      }
      try {
        res.locals.user = await authenticate(token);
      } catch (error) {
        challenge(res);
        throw error;
      }
      next();
    },
    optionalUser: async (req, res, next) => {
      const token = bearerToken(req);
      if (token === undefined) return next();
      if (token === null) throw unauthorized();
      res.locals.user = await authenticate(token);
      next();
    },
  };
}
