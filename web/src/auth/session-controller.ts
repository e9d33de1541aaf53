import type { AuthTokens, AuthUser } from "@sd/contracts";
import type { AuthorizationSource, RefreshResult } from "../api/authorized";
import { ApiError } from "../api/client";
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
  /**
   * Runs a refresh while no other tab of this browser runs one (the Web Locks API), so two tabs
   * never both spend the refresh token they share: the server ends a session whose rotated token is reused.
   */
  oneTabAtATime<T>(task: () => Promise<T>): Promise<T>;
}

/**
 * The server refused the refresh token (expired, revoked, already used): the session is over.
 * Anything else (no answer, 429, 5xx) says nothing about the session, which is kept for a later try.
 */
const isRefusal = (error: unknown): boolean => error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 429;

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
   * (Re)loads the session from storage: on start, on every `authStateChanged` event and when another
   * tab changes it. A valid token signs in; an expired one is renewed with the refresh token (the
   * session stays loading meanwhile), and only a refused renewal ends the session as expired.
   */
  load(): void {
    const stored = readStoredSession(this.deps.storage, this.deps.now());
    this.apply({ type: "loaded", stored });
    if (stored.kind === "expired") void this.refresh();
  }

  /**
   * Runs every 60 seconds (and when the tab is shown again): a token that has expired, or would
   * before the next two checks, is refreshed, so a signed-in user stays signed in for the refresh
   * token's life, not only the access token's few minutes. A refused refresh ends the session.
   */
  checkExpiry(): void {
    const { tokens } = this.state;
    if (tokens && isAccessTokenExpired(tokens.access_token, this.deps.now() + 2 * EXPIRY_CHECK_INTERVAL_MS)) void this.refresh();
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
    const held = this.state.tokens;
    if (!held) return Promise.resolve({ ok: false, error: AUTH_FALLBACKS.noRefreshToken });
    // Refresh tokens rotate and reusing an old one ends the session: concurrent callers share one
    // exchange, and tabs take turns.
    this.refreshing ??= this.deps.oneTabAtATime(() => this.exchangeRefreshToken(held)).finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  /**
   * Runs while this tab holds the refresh lock; `held` are the tokens that needed renewing when the
   * refresh was asked for (this tab may have loaded newer ones from storage since).
   */
  private async exchangeRefreshToken(held: AuthTokens): Promise<RefreshResult> {
    // Storage is what every tab shares: another tab may have rotated the tokens while this one waited.
    const shared = readStoredSession(this.deps.storage, this.deps.now());
    if (shared.kind === "none" || shared.user.id !== this.state.user?.id) {
      // Signed out (or in as someone else) in another tab: this tab follows.
      this.load();
      return { ok: false, error: AUTH_FALLBACKS.tokenRefresh };
    }
    if (shared.kind === "valid" && shared.tokens.refresh_token !== held.refresh_token) {
      this.apply({ type: "tokens-refreshed", tokens: shared.tokens });
      return { ok: true, accessToken: shared.tokens.access_token };
    }
    const refreshToken = shared.tokens.refresh_token;
    const isCurrent = () => [held.refresh_token, refreshToken].includes(this.state.tokens?.refresh_token ?? "");
    let tokens: AuthTokens;
    try {
      tokens = await this.deps.refreshTokens(refreshToken);
    } catch (error) {
      const message = authErrorText(error, AUTH_FALLBACKS.tokenRefresh);
      if (!isCurrent()) return { ok: false, error: message };
      if (isRefusal(error)) {
        // The user is logged out, and told the session expired (they can go on without an account).
        await this.end({ type: "expired" });
        this.deps.announce();
        this.deps.onExpired();
      } else {
        this.apply({ type: "refresh-unavailable" });
      }
      return { ok: false, error: message };
    }
    // Signed out (or in as someone else) while the exchange ran: the new tokens are not theirs.
    if (!isCurrent()) return { ok: false, error: AUTH_FALLBACKS.tokenRefresh };
    this.apply({ type: "tokens-refreshed", tokens });
    return { ok: true, accessToken: tokens.access_token };
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
