import { randomUUID } from "node:crypto";
import type { AuthResponse, AuthTokens, AuthUser } from "@sd/contracts";
import { endedSessionKey, type Redis } from "@sd/queue";
import type { Store, User } from "@sd/store";
import type { Logger } from "@sd/telemetry";
import { hashToken, randomToken, type AccessTokens } from "./tokens";

const DAY_MS = 24 * 3600 * 1000;

/** The user as the auth endpoints answer it: only the fields its client may see. */
export function toAuthUser(user: User): AuthUser {
  return { id: user.id, email: user.email, name: user.name, is_verified: user.is_verified, avatar_url: user.avatar_url };
}

/**
 * Sessions: a sign-in starts a refresh-token family (its id is the session id carried by the
 * access tokens). Refresh tokens rotate on use; presenting one that was already rotated or
 * revoked ends the whole session. An ended session's access tokens are refused too: its id is
 * kept in Redis for as long as an access token lives; and its live sockets are disconnected.
 */
export class Sessions {
  constructor(
    private readonly store: Store,
    private readonly redis: Redis,
    private readonly keyPrefix: string,
    private readonly access: AccessTokens,
    private readonly refreshTtlDays: number,
    private readonly logger: Logger,
    /** Disconnects the session's live sockets (they were let into rooms by its access tokens). */
    private readonly endSockets: (sessionId: string) => void,
  ) {}

  /** Starts a session for a user who just signed in. */
  async start(user: User): Promise<AuthResponse> {
    const sessionId = randomUUID();
    return { user: toAuthUser(user), tokens: await this.issue(user, sessionId) };
  }

  /** New tokens for a refresh token, or null when it cannot be used (unknown, expired, rotated, revoked). */
  async refresh(refreshToken: string): Promise<AuthTokens | null> {
    const hash = hashToken(refreshToken);
    const now = new Date();
    if (!(await this.store.refreshTokens.rotate(hash, now))) {
      const known = await this.store.refreshTokens.findByHash(hash);
      if (known && known.rotated_at !== null && known.revoked_at === null) {
        // Someone holds a token that was already used: the session may be stolen. End it.
        // (This token is revoked first, so a rotation racing with the scan below sees it.)
        this.logger.warn({ session: known.family_id, user_id: known.user_id }, "refresh token reused: session revoked");
        await this.store.refreshTokens.revoke(hash, now);
        await this.end(known.family_id);
      }
      return null;
    }
    const token = await this.store.refreshTokens.findByHash(hash);
    const user = token ? await this.store.users.findById(token.user_id) : null;
    if (!token || !user) return null;
    const tokens = await this.issue(user, token.family_id);
    // A reuse detected concurrently may have scanned the family before our new token existed.
    if (await this.store.refreshTokens.isFamilyRevoked(token.family_id)) {
      await this.end(token.family_id);
      return null;
    }
    return tokens;
  }

  /**
   * Ends a session: every refresh token of it is revoked, its access tokens stop working and its
   * sockets are disconnected (once its access tokens are refused, so none can rejoin with one).
   */
  async end(sessionId: string): Promise<void> {
    await this.redis.set(this.revokedKey(sessionId), "1", "EX", this.access.ttlSeconds);
    this.endSockets(sessionId);
    await this.store.refreshTokens.revokeFamily(sessionId);
  }

  /** True when the session was ended within an access token's lifetime. */
  async isEnded(sessionId: string): Promise<boolean> {
    return (await this.redis.exists(this.revokedKey(sessionId))) === 1;
  }

  private async issue(user: User, sessionId: string): Promise<AuthTokens> {
    const refresh_token = randomToken();
    const now = new Date();
    await this.store.refreshTokens.insert({
      hash: hashToken(refresh_token),
      family_id: sessionId,
      user_id: user.id,
      created_at: now,
      expires_at: new Date(now.getTime() + this.refreshTtlDays * DAY_MS),
    });
    return {
      access_token: this.access.sign({ userId: user.id, email: user.email, sessionId }),
      refresh_token,
      expires_in: this.access.ttlSeconds,
      token_type: "bearer",
    };
  }

  private revokedKey(sessionId: string): string {
    return endedSessionKey(this.keyPrefix, sessionId);
  }
}
