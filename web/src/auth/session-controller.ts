import type { AuthTokens, AuthUser } from "@sd/contracts";
import type { AuthorizationSource, RefreshResult } from "../api/authorized";
import { AUTH_FALLBACKS, authErrorText } from "./auth-api";
import { isAccessTokenExpired } from "./jwt";
import {
  EXPIRY_CHECK_INTERVAL_MS,
  isAuthenticated,
  LOADING_SESSION,
  persistSession,
  readStoredSession,
  sessionReducer,
  type KeyValueStorage,
  type SessionAction,
  type SessionState,
} from "./session";

export interface SessionDeps {
  /** localStorage in the browser. */
  storage: KeyValueStorage;
  now(): number;
  refreshTokens(refreshToken: string): Promise<AuthTokens>;
  logoutOnServer(accessToken: string): Promise<void>;
  /** Dispatches the `authStateChanged` window event. */
  announce(): void;
  /** Tells a signed-in user that their session expired. */
  onExpired(): void;
}

/**
 * The device's session, outside React so every transition is testable:
 * it keeps the state, mirrors it to storage on every change, and notifies subscribers
 * (the SessionProvider renders from it with useSyncExternalStore).
 */
export class SessionController implements AuthorizationSource {
  private state: SessionState = LOADING_SESSION;
  private readonly listeners = new Set<() => void>();
  private refreshing: Promise<RefreshResult> | null = null;

  constructor(private readonly deps: SessionDeps) {}

  readonly getState = (): SessionState => this.state;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /**
   * (Re)loads the session from storage: on start and on every `authStateChanged` event. An
   * expired token clears the session (and storage) and flags it as expired; a valid one signs in.
   */
  load(): void {
    const stored = readStoredSession(this.deps.storage, this.deps.now());
    this.apply({ type: "loaded", stored });
    if (stored.kind === "expired") this.deps.onExpired();
  }

  /**
   * Runs every 60 seconds: on expiry it clears the session and storage and dispatches the event.
   * A token that would expire before the next two checks is refreshed first, so a signed-in user
   * stays signed in for the refresh token's life, not only the access token's few minutes.
   */
  checkExpiry(): void {
    const { tokens } = this.state;
    if (!tokens) return;
    const now = this.deps.now();
    if (!isAccessTokenExpired(tokens.access_token, now)) {
      if (isAccessTokenExpired(tokens.access_token, now + 2 * EXPIRY_CHECK_INTERVAL_MS)) void this.refresh();
      return;
    }
    this.apply({ type: "expired" });
    this.deps.announce();
    this.deps.onExpired();
  }

  signIn(user: AuthUser, tokens: AuthTokens): void {
    this.apply({ type: "signed-in", user, tokens });
  }

  /** Calls the server's logout, then clears the session whether or not that call succeeded. */
  async logout(): Promise<void> {
    await this.end({ type: "signed-out" });
  }

  accessToken(): string | null {
    return this.state.tokens && isAuthenticated(this.state, this.deps.now()) ? this.state.tokens.access_token : null;
  }

  refresh(): Promise<RefreshResult> {
    // Refresh tokens rotate and reusing an old one ends the session: concurrent callers share one exchange.
    this.refreshing ??= this.exchangeRefreshToken().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  private async exchangeRefreshToken(): Promise<RefreshResult> {
    const refreshToken = this.state.tokens?.refresh_token;
    if (!refreshToken) return { ok: false, error: AUTH_FALLBACKS.noRefreshToken };
    let tokens: AuthTokens;
    try {
      tokens = await this.deps.refreshTokens(refreshToken);
    } catch (error) {
      const message = authErrorText(error, AUTH_FALLBACKS.tokenRefresh);
      if (this.isCurrent(refreshToken)) {
        // The user is logged out, and told the session expired (they can go on without an account).
        await this.end({ type: "expired" });
        this.deps.onExpired();
      }
      return { ok: false, error: message };
    }
    // Signed out (or in as someone else) while the exchange ran: the new tokens are not theirs.
    if (!this.isCurrent(refreshToken)) return { ok: false, error: AUTH_FALLBACKS.tokenRefresh };
    this.apply({ type: "tokens-refreshed", tokens });
    return { ok: true, accessToken: tokens.access_token };
  }

  private isCurrent(refreshToken: string): boolean {
    return this.state.tokens?.refresh_token === refreshToken;
  }

  private async end(action: Extract<SessionAction, { type: "signed-out" | "expired" }>): Promise<void> {
    const accessToken = this.state.tokens?.access_token;
    if (accessToken) {
      try {
        await this.deps.logoutOnServer(accessToken);
      } catch {
        // Logged out locally regardless.
      }
    }
    this.apply(action);
  }

  private apply(action: SessionAction): void {
    const next = sessionReducer(this.state, action);
    persistSession(this.deps.storage, next);
    if (next === this.state) return;
    this.state = next;
    for (const listener of this.listeners) listener();
  }
}
