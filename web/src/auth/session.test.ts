import { describe, expect, it } from "vitest";
import {
  clearStoredSession,
  displayName,
  initials,
  isAuthenticated,
  LOADING_SESSION,
  menuName,
  persistSession,
  readStoredSession,
  sessionReducer,
  SESSION_STORAGE_KEYS,
  type SessionState,
} from "./session";
import { memoryStorage, NOW, tokensExpiringIn, USER } from "./test-support";

const stored = (user: unknown, tokens: unknown) =>
  memoryStorage({ [SESSION_STORAGE_KEYS.user]: JSON.stringify(user), [SESSION_STORAGE_KEYS.tokens]: JSON.stringify(tokens) });

describe("readStoredSession", () => {
  it("reads the user from auth_user and the tokens object from auth_token", () => {
    const tokens = tokensExpiringIn(600);
    expect(SESSION_STORAGE_KEYS).toEqual({ user: "auth_user", tokens: "auth_token" });
    expect(readStoredSession(stored(USER, tokens), NOW)).toEqual({ kind: "valid", user: USER, tokens });
  });

  it("reports a stored session whose access token has expired, with its tokens (the refresh token may renew it)", () => {
    const tokens = tokensExpiringIn(-1);
    expect(readStoredSession(stored(USER, tokens), NOW)).toEqual({ kind: "expired", user: USER, tokens });
  });

  it.each([
    ["nothing stored", memoryStorage()],
    ["only the user", memoryStorage({ auth_user: JSON.stringify(USER) })],
    ["only the tokens", memoryStorage({ auth_token: JSON.stringify(tokensExpiringIn(600)) })],
    ["a user that is not JSON", memoryStorage({ auth_user: "{", auth_token: JSON.stringify(tokensExpiringIn(600)) })],
    ["tokens of the wrong shape", stored(USER, { access_token: 1 })],
    ["a user of the wrong shape", stored({ email: "ada@example.com" }, tokensExpiringIn(600))],
  ])("finds no session with %s", (_case, storage) => {
    expect(readStoredSession(storage, NOW)).toEqual({ kind: "none" });
  });
});

describe("persistSession", () => {
  const ready = (over: Partial<SessionState>): SessionState => ({ status: "ready", user: null, tokens: null, expired: false, ...over });

  it("saves user and tokens when both exist", () => {
    const storage = memoryStorage();
    const tokens = tokensExpiringIn(600);
    persistSession(storage, ready({ user: USER, tokens }));
    expect(JSON.parse(storage.getItem("auth_user")!)).toEqual(USER);
    expect(JSON.parse(storage.getItem("auth_token")!)).toEqual(tokens);
  });

  it("clears storage otherwise", () => {
    const storage = stored(USER, tokensExpiringIn(600));
    persistSession(storage, ready({ user: USER }));
    expect(storage.data.size).toBe(0);
  });

  it("writes nothing while the session is still loading (storage not read yet)", () => {
    const storage = stored(USER, tokensExpiringIn(600));
    persistSession(storage, LOADING_SESSION);
    expect(storage.data.size).toBe(2);
  });

  it("clearStoredSession removes both keys and nothing else", () => {
    const storage = memoryStorage({ auth_user: "x", auth_token: "y", other: "z" });
    clearStoredSession(storage);
    expect([...storage.data.keys()]).toEqual(["other"]);
  });
});

describe("sessionReducer", () => {
  const tokens = tokensExpiringIn(600);
  const signedIn: SessionState = { status: "ready", user: USER, tokens, expired: false };

  it("starts loading and signs in from a valid stored session", () => {
    expect(LOADING_SESSION.status).toBe("loading");
    expect(sessionReducer(LOADING_SESSION, { type: "loaded", stored: { kind: "valid", user: USER, tokens } })).toEqual(signedIn);
  });

  it("stays loading with a stored session whose access token expired, until it is renewed or refused", () => {
    const old = tokensExpiringIn(-1);
    const renewing = sessionReducer(LOADING_SESSION, { type: "loaded", stored: { kind: "expired", user: USER, tokens: old } });
    expect(renewing).toEqual({ status: "loading", user: USER, tokens: old, expired: false });
    expect(sessionReducer(renewing, { type: "tokens-refreshed", tokens })).toEqual(signedIn);
    expect(sessionReducer(renewing, { type: "expired" })).toEqual({ status: "ready", user: null, tokens: null, expired: true });
    // Server unreachable: the session is kept (ready, its token still expired) for the next check to renew.
    expect(sessionReducer(renewing, { type: "refresh-unavailable" })).toEqual({ ...renewing, status: "ready" });
    expect(sessionReducer(signedIn, { type: "refresh-unavailable" })).toBe(signedIn);
  });

  it("clears the session when storage is empty, remembering whether it expired", () => {
    expect(sessionReducer(signedIn, { type: "loaded", stored: { kind: "none" } })).toEqual({ status: "ready", user: null, tokens: null, expired: false });
    const expired = sessionReducer(signedIn, { type: "expired" });
    expect(sessionReducer(expired, { type: "loaded", stored: { kind: "none" } })).toBe(expired);
    expect(sessionReducer(LOADING_SESSION, { type: "loaded", stored: { kind: "none" } }).status).toBe("ready");
  });

  it("signs in (forgetting an earlier expiry), refreshes tokens and signs out", () => {
    const expired = sessionReducer(signedIn, { type: "expired" });
    expect(sessionReducer(expired, { type: "signed-in", user: USER, tokens })).toEqual(signedIn);
    const fresh = tokensExpiringIn(900, "refresh-2");
    expect(sessionReducer(signedIn, { type: "tokens-refreshed", tokens: fresh })).toEqual({ ...signedIn, tokens: fresh });
    expect(sessionReducer(signedIn, { type: "signed-out" })).toEqual({ status: "ready", user: null, tokens: null, expired: false });
  });

  it("ignores refreshed tokens that arrive after signing out", () => {
    const out = sessionReducer(signedIn, { type: "signed-out" });
    expect(sessionReducer(out, { type: "tokens-refreshed", tokens })).toBe(out);
  });
});

describe("isAuthenticated", () => {
  it("needs a user and tokens whose access token has not expired", () => {
    expect(isAuthenticated({ user: USER, tokens: tokensExpiringIn(60) }, NOW)).toBe(true);
    expect(isAuthenticated({ user: USER, tokens: tokensExpiringIn(-1) }, NOW)).toBe(false);
    expect(isAuthenticated({ user: null, tokens: tokensExpiringIn(60) }, NOW)).toBe(false);
    expect(isAuthenticated({ user: USER, tokens: null }, NOW)).toBe(false);
  });
});

describe("names", () => {
  it("displayName: the name, else the part of the email before the @, else 'User'", () => {
    expect(displayName({ name: "Ada Lovelace", email: "ada@example.com" })).toBe("Ada Lovelace");
    expect(displayName({ name: null, email: "grace.hopper@example.com" })).toBe("grace.hopper");
    expect(displayName({ name: "  ", email: "grace@example.com" })).toBe("grace");
    expect(displayName({ name: null, email: "@example.com" })).toBe("User");
    expect(displayName({ name: null, email: "" })).toBe("User");
  });

  it("menuName: the name, or 'User'", () => {
    expect(menuName({ name: "Ada Lovelace" })).toBe("Ada Lovelace");
    expect(menuName({ name: null })).toBe("User");
  });

  it("initials: two letters of the name, else the email's first letter", () => {
    expect(initials({ name: "Ada King Lovelace", email: "ada@example.com" })).toBe("AK");
    expect(initials({ name: "zoë", email: "z@example.com" })).toBe("Z");
    expect(initials({ name: null, email: "grace@example.com" })).toBe("G");
    expect(initials({ name: null, email: "" })).toBe("U");
  });
});
