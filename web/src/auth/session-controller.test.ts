import type { AuthTokens } from "@sd/contracts";
import { describe, expect, it } from "vitest";
import { ApiError } from "../api/client";
import { SESSION_STORAGE_KEYS } from "./session";
import { SessionController, type SessionDeps } from "./session-controller";
import { memoryStorage, NOW, tokensExpiringIn, USER } from "./test-support";

/** A controller on fake storage, clock and server, recording what it does. */
function harness(options: { stored?: { user: unknown; tokens: unknown }; refresh?: (token: string) => Promise<AuthTokens>; logout?: () => Promise<void> } = {}) {
  const storage = memoryStorage(
    options.stored
      ? { [SESSION_STORAGE_KEYS.user]: JSON.stringify(options.stored.user), [SESSION_STORAGE_KEYS.tokens]: JSON.stringify(options.stored.tokens) }
      : {},
  );
  const clock = { now: NOW };
  const log: string[] = [];
  const deps: SessionDeps = {
    storage,
    now: () => clock.now,
    refreshTokens: async (token) => {
      log.push(`refresh ${token}`);
      if (!options.refresh) throw new ApiError(401, "The session has expired or was signed out. Please sign in again.");
      return options.refresh(token);
    },
    logoutOnServer: async (accessToken) => {
      log.push(`logout ${accessToken === controller.getState().tokens?.access_token ? "current" : accessToken}`);
      await options.logout?.();
    },
    announce: () => {
      log.push("authStateChanged");
      // The provider reloads from storage on the event, as the browser does.
      controller.load();
    },
    onExpired: () => log.push("notice"),
  };
  const controller = new SessionController(deps);
  let notifications = 0;
  controller.subscribe(() => notifications++);
  return { controller, storage, clock, log, notifications: () => notifications };
}

const storedTokens = (storage: ReturnType<typeof memoryStorage>) => JSON.parse(storage.getItem("auth_token") ?? "null") as AuthTokens | null;

describe("SessionController: start", () => {
  it("starts loading, then signs in from a valid stored session", () => {
    const tokens = tokensExpiringIn(600);
    const { controller, log } = harness({ stored: { user: USER, tokens } });
    expect(controller.getState().status).toBe("loading");
    expect(controller.accessToken()).toBeNull();
    controller.load();
    expect(controller.getState()).toEqual({ status: "ready", user: USER, tokens, expired: false });
    expect(controller.accessToken()).toBe(tokens.access_token);
    expect(log).toEqual([]);
  });

  it("clears an expired stored session, flags it as expired and tells the user once", () => {
    const { controller, storage, log } = harness({ stored: { user: USER, tokens: tokensExpiringIn(-5) } });
    controller.load();
    expect(controller.getState()).toEqual({ status: "ready", user: null, tokens: null, expired: true });
    expect(storage.data.size).toBe(0);
    expect(log).toEqual(["notice"]);
    // StrictMode runs the start effect twice: storage is already cleared, so no second notice.
    controller.load();
    expect(controller.getState().expired).toBe(true);
    expect(log).toEqual(["notice"]);
  });

  it("is signed out with nothing stored", () => {
    const { controller } = harness();
    controller.load();
    expect(controller.getState()).toEqual({ status: "ready", user: null, tokens: null, expired: false });
  });
});

describe("SessionController: authStateChanged reloads from storage", () => {
  it("signs in with what another part of the app stored, and out when it is removed", () => {
    const { controller, storage } = harness();
    controller.load();
    const tokens = tokensExpiringIn(600);
    storage.setItem("auth_user", JSON.stringify(USER));
    storage.setItem("auth_token", JSON.stringify(tokens));
    controller.load();
    expect(controller.getState().user).toEqual(USER);
    storage.removeItem("auth_token");
    controller.load();
    expect(controller.getState().user).toBeNull();
    expect(storage.data.size).toBe(0);
  });
});

describe("SessionController: storage mirrors the session", () => {
  it("saves user and tokens on sign-in and clears them on logout", async () => {
    const { controller, storage, log } = harness();
    controller.load();
    const tokens = tokensExpiringIn(600);
    controller.signIn(USER, tokens);
    expect(JSON.parse(storage.getItem("auth_user")!)).toEqual(USER);
    expect(storedTokens(storage)).toEqual(tokens);
    await controller.logout();
    expect(log).toEqual(["logout current"]);
    expect(controller.getState()).toEqual({ status: "ready", user: null, tokens: null, expired: false });
    expect(storage.data.size).toBe(0);
  });

  it("logout clears the session even when the server call fails", async () => {
    const { controller, storage } = harness({
      logout: () => Promise.reject(new TypeError("Failed to fetch")),
    });
    controller.load();
    controller.signIn(USER, tokensExpiringIn(600));
    await controller.logout();
    expect(controller.getState().user).toBeNull();
    expect(storage.data.size).toBe(0);
  });

  it("notifies subscribers on each change", () => {
    const { controller, notifications } = harness();
    controller.load();
    controller.signIn(USER, tokensExpiringIn(600));
    expect(notifications()).toBe(2);
  });
});

describe("SessionController: the 60-second expiry check", () => {
  it("does nothing while the token is valid", () => {
    const { controller, log, clock } = harness();
    controller.load();
    controller.signIn(USER, tokensExpiringIn(600));
    clock.now += 60_000;
    controller.checkExpiry();
    expect(controller.getState().user).toEqual(USER);
    expect(log).toEqual([]);
  });

  it("on expiry clears the session and storage, dispatches authStateChanged and tells the user", () => {
    const { controller, storage, log, clock } = harness();
    controller.load();
    controller.signIn(USER, tokensExpiringIn(120));
    clock.now += 120_000;
    expect(controller.accessToken()).toBeNull(); // an expired token is never sent
    controller.checkExpiry();
    expect(controller.getState()).toEqual({ status: "ready", user: null, tokens: null, expired: true });
    expect(storage.data.size).toBe(0);
    expect(log).toEqual(["authStateChanged", "notice"]);
    controller.checkExpiry();
    expect(log).toEqual(["authStateChanged", "notice"]);
  });

  it("refreshes a token that would expire before the next two checks, keeping the user signed in", async () => {
    const fresh = tokensExpiringIn(900, "refresh-2");
    const { controller, storage, log, clock } = harness({ refresh: async () => fresh });
    controller.load();
    controller.signIn(USER, tokensExpiringIn(150));
    clock.now += 60_000;
    controller.checkExpiry();
    await controller.refresh(); // the exchange the check started (concurrent callers share it)
    expect(log.filter((l) => l.startsWith("refresh"))).toHaveLength(1);
    expect(controller.getState()).toMatchObject({ user: USER, tokens: fresh, expired: false });
    expect(storedTokens(storage)).toEqual(fresh);
  });

  it("does nothing when signed out", () => {
    const { controller, log } = harness();
    controller.load();
    controller.checkExpiry();
    expect(log).toEqual([]);
  });
});

describe("SessionController: refresh", () => {
  it("exchanges the refresh token for new tokens and stores them", async () => {
    const fresh = tokensExpiringIn(900, "refresh-2");
    const { controller, storage, log } = harness({ refresh: async () => fresh });
    controller.load();
    controller.signIn(USER, tokensExpiringIn(600));
    expect(await controller.refresh()).toEqual({ ok: true, accessToken: fresh.access_token });
    expect(log).toEqual(["refresh refresh-1"]);
    expect(controller.getState().tokens).toEqual(fresh);
    expect(storedTokens(storage)).toEqual(fresh);
  });

  it("shares one exchange between concurrent callers (refresh tokens rotate)", async () => {
    let release: (tokens: AuthTokens) => void = () => undefined;
    const { controller, log } = harness({ refresh: () => new Promise((resolve) => (release = resolve)) });
    controller.load();
    controller.signIn(USER, tokensExpiringIn(600));
    const both = Promise.all([controller.refresh(), controller.refresh()]);
    const fresh = tokensExpiringIn(900, "refresh-2");
    release(fresh);
    expect(await both).toEqual([
      { ok: true, accessToken: fresh.access_token },
      { ok: true, accessToken: fresh.access_token },
    ]);
    expect(log).toEqual(["refresh refresh-1"]);
    // A later refresh is a new exchange, with the rotated token.
    void controller.refresh();
    expect(log).toEqual(["refresh refresh-1", "refresh refresh-2"]);
  });

  it("logs the user out when the refresh fails, with the server's detail", async () => {
    const { controller, storage, log } = harness();
    controller.load();
    controller.signIn(USER, tokensExpiringIn(600));
    expect(await controller.refresh()).toEqual({ ok: false, error: "The session has expired or was signed out. Please sign in again." });
    expect(log).toEqual(["refresh refresh-1", "logout current", "notice"]);
    expect(controller.getState()).toEqual({ status: "ready", user: null, tokens: null, expired: true });
    expect(storage.data.size).toBe(0);
  });

  it("falls back to 'Token refresh failed' when the failure has no message", async () => {
    const { controller } = harness({ refresh: () => Promise.reject(new Error("")) });
    controller.load();
    controller.signIn(USER, tokensExpiringIn(600));
    expect(await controller.refresh()).toEqual({ ok: false, error: "Token refresh failed" });
  });

  it("answers 'No refresh token available' without a session", async () => {
    const { controller, log } = harness();
    controller.load();
    expect(await controller.refresh()).toEqual({ ok: false, error: "No refresh token available" });
    expect(log).toEqual([]);
  });

  it("does not sign back in when the user logged out while the refresh ran", async () => {
    let release: (tokens: AuthTokens) => void = () => undefined;
    const { controller, storage } = harness({ refresh: () => new Promise((resolve) => (release = resolve)) });
    controller.load();
    controller.signIn(USER, tokensExpiringIn(600));
    const pending = controller.refresh();
    await controller.logout();
    release(tokensExpiringIn(900, "refresh-2"));
    expect(await pending).toEqual({ ok: false, error: "Token refresh failed" });
    expect(controller.getState().user).toBeNull();
    expect(storage.data.size).toBe(0);
  });
});
