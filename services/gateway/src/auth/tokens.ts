import { createHash, randomBytes, randomUUID } from "node:crypto";
import jwt from "jsonwebtoken";

/** `iss` and `aud` of every access token; both are checked on verify. */
export const ACCESS_TOKEN_ISSUER = "smart-decision";
export const ACCESS_TOKEN_AUDIENCE = "smart-decision-api";
const ALGORITHM = "HS256";

/** Who an access token speaks for: the user, their email, and the session (refresh family) it belongs to. */
export interface AccessClaims {
  userId: string;
  email: string;
  sessionId: string;
}

/** A random opaque token: 32 bytes, base64url. */
export function randomToken(): string {
  return randomBytes(32).toString("base64url");
}

/** How opaque tokens are stored and looked up: their SHA-256, hex. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** Short-lived JWT access tokens (HS256, algorithm pinned on verify, issuer/audience/expiry checked). */
export class AccessTokens {
  constructor(
    private readonly secret: string,
    readonly ttlSeconds: number,
  ) {}

  sign(claims: AccessClaims): string {
    return jwt.sign({ email: claims.email, sid: claims.sessionId }, this.secret, {
      algorithm: ALGORITHM,
      expiresIn: this.ttlSeconds,
      issuer: ACCESS_TOKEN_ISSUER,
      audience: ACCESS_TOKEN_AUDIENCE,
      subject: claims.userId,
      // Unique per token, so two tokens issued in the same second are still told apart (logs, audits).
      jwtid: randomUUID(),
    });
  }

  /** The token's claims and expiry, or null for anything not issued by us, expired or malformed. */
  verify(token: string): (AccessClaims & { expiresAt: Date }) | null {
    let payload: string | jwt.JwtPayload;
    try {
      payload = jwt.verify(token, this.secret, {
        algorithms: [ALGORITHM],
        issuer: ACCESS_TOKEN_ISSUER,
        audience: ACCESS_TOKEN_AUDIENCE,
      });
    } catch {
      return null;
    }
    if (typeof payload !== "object" || typeof payload.exp !== "number") return null;
    const { sub, email, sid } = payload as jwt.JwtPayload & { email?: unknown; sid?: unknown };
    if (typeof sub !== "string" || sub === "" || typeof email !== "string" || typeof sid !== "string" || sid === "") return null;
    return { userId: sub, email, sessionId: sid, expiresAt: new Date(payload.exp * 1000) };
  }
}
