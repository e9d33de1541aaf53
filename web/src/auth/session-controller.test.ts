import type { AuthTokens } from "@sd/contracts";
import { describe, expect, it } from "vitest";
import { ApiError } from "../api/client";
import { SESSION_STORAGE_KEYS } from "./session";
import { SessionController, type SessionDeps } from "./session-controller";
import { memoryStorage, NOW, tokensExpiringIn, USER } from "./test-support";

/** A refresh answer the test gives when it chooses (Promise.withResolvers is missing in Node 20). */
function pendingAnswer() {
  let resolve: (tokens: AuthTokens) => void = () => undefined;
  const promise = new Promise<AuthTokens>((settle) => (resolve = settle));
  return { promise, resolve };
}

const REFUSED = "The session has expired or was signed out. Please sign in again.";

/** Web Locks in memory: tasks run one after the other, in the order they asked. */
function webLock(): SessionDeps["oneTabAtATime"] {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(task: () => Promise<T>): Promise<T> => {
    const run = tail.then(task);
    tail = run.catch(() => undefined);
    return run;
  };
}

/**
 * The gateway's refresh as it behaves: the token rotates on use, and presenting one already used
 * ends the session (every later refresh is refused too).
 */
function rotatingServer(first = "refresh-1") {
  let current = first;
  let rotations = 0;
  let ended = false;
  return {
    get ended() {
      return ended;
    },
    refresh: async (token: string): Promise<AuthTokens> => {
      if (ended || token !== current) {
        ended = true;
        throw new ApiError(401, REFUSED);
      }
      current = `refresh-${++rotations + 1}`;
      return tokensExpiringIn(900, current);
    },
  };
}

interface HarnessOptions {
  stored?: { user: unknown; tokens: unknown };
  /** Storage shared with another harness (another tab of the same browser). */
  storage?: ReturnType<typeof memoryStorage>;
  /** The refresh lock shared with another harness; by default each harness has its own. */
  lock?: SessionDeps["oneTabAtATime"];
  refresh?: (token: string) => Promise<AuthTokens>;
  logout?: () => Promise<void>;
}

/** A controller on fake storage, clock and server, recording what it does. */
function harness(options: HarnessOptions = {}) {
  const storage =
    options.storage ??
    memoryStorage(
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
      if (!options.refresh) throw new ApiError(401, REFUSED);
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
    oneTabAtATime: options.lock ?? webLock(),
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

  it("renews an expired stored access token with the refresh token, staying loading meanwhile", async () => {
    const fresh = tokensExpiringIn(900, "refresh-2");
    const answer = pendingAnswer();
    const { controller, storage, log } = harness({ stored: { user: USER, tokens: tokensExpiringIn(-3600) }, refresh: () => answer.promise });
    controller.load();
    // StrictMode runs the start effect twice: still one exchange.
    controller.load();
    expect(controller.getState()).toMatchObject({ status: "loading", user: USER, expired: false });
    expect(controller.accessToken()).toBeNull();
    answer.resolve(fresh);
    expect(await controller.refresh()).toEqual({ ok: true, accessToken: fresh.access_token });
    expect(controller.getState()).toEqual({ status: "ready", user: USER, tokens: fresh, expired: false });
    expect(controller.accessToken()).toBe(fresh.access_token);
    expect(storedTokens(storage)).toEqual(fresh);
    expect(log).toEqual(["refresh refresh-1"]);
  });

  it("when the server refuses the renewal: clears the session, flags it as expired and tells the user once", async () => {
    const { controller, storage, log } = harness({ stored: { user: USER, tokens: tokensExpiringIn(-5) } });
    controller.load();
    controller.load();
    await controller.refresh();
    expect(controller.getState()).toEqual({ status: "ready", user: null, tokens: null, expired: true });
    expect(storage.data.size).toBe(0);
    expect(log.filter((line) => line !== "authStateChanged")).toEqual(["refresh refresh-1", "logout current", "notice"]);
  });

  it("keeps the session when the server cannot be reached, and the next check renews it", async () => {
    const fresh = tokensExpiringIn(900, "refresh-2");
    let reachable = false;
    const { controller, storage, log } = harness({
      stored: { user: USER, tokens: tokensExpiringIn(-5) },
      refresh: async () => {
        if (!reachable) throw new ApiError(0, "Token refresh failed");
        return fresh;
      },
    });
    controller.load();
    expect(await controller.refresh()).toEqual({ ok: false, error: "Token refresh failed" });
    expect(controller.getState()).toMatchObject({ status: "ready", user: USER, expired: false });
    expect(storage.data.size).toBe(2);
    reachable = true;
    controller.checkExpiry();
    await controller.refresh();
    expect(controller.getState()).toEqual({ status: "ready", user: USER, tokens: fresh, expired: false });
    expect(log).toEqual(["refresh refresh-1", "refresh refresh-1"]);
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

  it("renews a token that already expired (the tab slept through the checks)", async () => {
    const fresh = tokensExpiringIn(3600, "refresh-2");
    const { controller, clock } = harness({ refresh: async () => fresh });
    controller.load();
    controller.signIn(USER, tokensExpiringIn(120));
    clock.now += 20 * 60_000;
    expect(controller.accessToken()).toBeNull(); // an expired token is never sent
    controller.checkExpiry();
    await controller.refresh();
    expect(controller.getState()).toEqual({ status: "ready", user: USER, tokens: fresh, expired: false });
  });

  it("when the refresh is refused: clears the session and storage, dispatches authStateChanged and tells the user", async () => {
    const { controller, storage, log, clock } = harness();
    controller.load();
    controller.signIn(USER, tokensExpiringIn(120));
    clock.now += 120_000;
    controller.checkExpiry();
    await controller.refresh();
    expect(controller.getState()).toEqual({ status: "ready", user: null, tokens: null, expired: true });
    expect(storage.data.size).toBe(0);
    expect(log).toEqual(["refresh refresh-1", "logout current", "authStateChanged", "notice"]);
    controller.checkExpiry();
    expect(log).toEqual(["refresh refresh-1", "logout current", "authStateChanged", "notice"]);
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
    const answer = pendingAnswer();
    const { controller, log } = harness({ refresh: () => answer.promise });
    controller.load();
    controller.signIn(USER, tokensExpiringIn(600));
    const both = Promise.all([controller.refresh(), controller.refresh()]);
    const fresh = tokensExpiringIn(900, "refresh-2");
    answer.resolve(fresh);
    expect(await both).toEqual([
      { ok: true, accessToken: fresh.access_token },
      { ok: true, accessToken: fresh.access_token },
    ]);
    expect(log).toEqual(["refresh refresh-1"]);
    // A later refresh is a new exchange, with the rotated token.
    await controller.refresh();
    expect(log).toEqual(["refresh refresh-1", "refresh refresh-2"]);
  });

  it("logs the user out when the refresh fails, with the server's detail", async () => {
    const { controller, storage, log } = harness();
    controller.load();
    controller.signIn(USER, tokensExpiringIn(600));
    expect(await controller.refresh()).toEqual({ ok: false, error: "The session has expired or was signed out. Please sign in again." });
    expect(log).toEqual(["refresh refresh-1", "logout current", "authStateChanged", "notice"]);
    expect(controller.getState()).toEqual({ status: "ready", user: null, tokens: null, expired: true });
    expect(storage.data.size).toBe(0);
  });

  it("falls back to 'Token refresh failed' when the failure has no message", async () => {
    const { controller } = harness({ refresh: () => Promise.reject(new Error("")) });
    controller.load();
    controller.signIn(USER, tokensExpiringIn(600));
    expect(await controller.refresh()).toEqual({ ok: false, error: "Token refresh failed" });
  });

  it("tells a server that was unreachable apart from one that refused: the session is kept", async () => {
    const { controller, storage, log } = harness({ refresh: () => Promise.reject(new ApiError(503, "Service Unavailable")) });
    controller.load();
    controller.signIn(USER, tokensExpiringIn(600));
    expect(await controller.refresh()).toEqual({ ok: false, error: "Service Unavailable" });
    expect(controller.getState()).toMatchObject({ user: USER, expired: false });
    expect(storage.data.size).toBe(2);
    expect(log).toEqual(["refresh refresh-1"]);
  });

  it("answers 'No refresh token available' without a session", async () => {
    const { controller, log } = harness();
    controller.load();
    expect(await controller.refresh()).toEqual({ ok: false, error: "No refresh token available" });
    expect(log).toEqual([]);
  });

  it("does not sign back in when the user logged out while the refresh ran", async () => {
    const answer = pendingAnswer();
    const { controller, storage } = harness({ refresh: () => answer.promise });
    controller.load();
    controller.signIn(USER, tokensExpiringIn(600));
    const pending = controller.refresh();
    await controller.logout();
    answer.resolve(tokensExpiringIn(900, "refresh-2"));
    expect(await pending).toEqual({ ok: false, error: "Token refresh failed" });
    expect(controller.getState().user).toBeNull();
    expect(storage.data.size).toBe(0);
  });
});

describe("SessionController: tabs of one browser share the session", () => {
  /**
   * Two tabs: one storage, one lock, one server that ends the session when a used token comes back.
   * With `storageEvents`, a tab's write reloads the other tab, as the browser's storage event does.
   */
  function twoTabs(lock: SessionDeps["oneTabAtATime"] = webLock(), { storageEvents = false } = {}) {
    const server = rotatingServer();
    const shared = memoryStorage({ [SESSION_STORAGE_KEYS.user]: JSON.stringify(USER), [SESSION_STORAGE_KEYS.tokens]: JSON.stringify(tokensExpiringIn(-60)) });
    const tabs: ReturnType<typeof harness>[] = [];
    const storageOf = (tab: number): ReturnType<typeof memoryStorage> => ({
      ...shared,
      setItem: (key, value) => {
        const changed = shared.getItem(key) !== value;
        shared.setItem(key, value);
        if (storageEvents && changed) tabs[1 - tab]?.controller.load();
      },
    });
    tabs.push(harness({ storage: storageOf(0), lock, refresh: server.refresh }), harness({ storage: storageOf(1), lock, refresh: server.refresh }));
    return { server, first: tabs[0]!, second: tabs[1]! };
  }

  it("two tabs opened after the access token expired: one exchange, both signed in, the session alive", async () => {
    const { server, first, second } = twoTabs();
    first.controller.load();
    second.controller.load();
    const [a, b] = await Promise.all([first.controller.refresh(), second.controller.refresh()]);
    expect(a).toEqual({ ok: true, accessToken: expect.any(String) });
    expect(b).toEqual(a);
    expect([...first.log, ...second.log]).toEqual(["refresh refresh-1"]);
    expect(server.ended).toBe(false);
    for (const tab of [first, second]) expect(tab.controller.getState()).toMatchObject({ status: "ready", user: USER, expired: false });
    expect(storedTokens(first.storage)?.refresh_token).toBe("refresh-2");
  });

  it("without taking turns the second tab would reuse the rotated token and the server would end the session", async () => {
    const { server, first, second } = twoTabs((task) => task());
    first.controller.load();
    second.controller.load();
    await Promise.all([first.controller.refresh(), second.controller.refresh()]);
    expect(server.ended).toBe(true);
  });

  it("a tab that loaded the other tab's new tokens while it waited its turn does not refresh again", async () => {
    const { server, first, second } = twoTabs(webLock(), { storageEvents: true });
    first.controller.load();
    second.controller.load();
    await Promise.all([first.controller.refresh(), second.controller.refresh()]);
    expect([...first.log, ...second.log]).toEqual(["refresh refresh-1"]);
    expect(second.controller.getState().tokens).toEqual(storedTokens(first.storage));
    expect(server.ended).toBe(false);
  });

  it("a tab still holding the old tokens adopts the ones another tab stored instead of spending its own", async () => {
    const { server, first, second } = twoTabs();
    first.controller.load();
    second.controller.load();
    await first.controller.refresh();
    const stored = storedTokens(first.storage)!;
    // The second tab missed the storage event: its 401 refresh finds the newer tokens.
    expect(await second.controller.refresh()).toEqual({ ok: true, accessToken: stored.access_token });
    expect(second.controller.getState().tokens).toEqual(stored);
    expect(second.log).toEqual([]);
    expect(server.ended).toBe(false);
  });

  it("a tab whose session was signed out in another tab follows it instead of refreshing", async () => {
    const { first, second } = twoTabs();
    first.controller.load();
    await first.controller.refresh();
    second.controller.load();
    await first.controller.logout();
    expect(await second.controller.refresh()).toEqual({ ok: false, error: "Token refresh failed" });
    expect(second.controller.getState()).toEqual({ status: "ready", user: null, tokens: null, expired: false });
    expect(second.log).toEqual([]);
  });
});
