import type { AuthResponse } from "@sd/contracts";
import { describe, expect, it } from "vitest";
import { ApiError } from "../api/client";
import { callbackRequest, completeCallback, type CallbackDeps } from "./auth-callback";
import { googleOAuthState, GOOGLE_OAUTH_STATE_KEY } from "./google-oauth-state";
import { memoryStorage, tokensExpiringIn, USER } from "./test-support";

const query = (text: string) => callbackRequest(new URLSearchParams(text));

describe("callbackRequest", () => {
  it("reads an error first, then a magic-link token, then Google's code and state", () => {
    expect(query("error=access_denied&token=t")).toEqual({ kind: "error" });
    expect(query("token=abc&code=c&state=s")).toEqual({ kind: "magic-link", token: "abc" });
    expect(query("code=c&state=s")).toEqual({ kind: "google", code: "c", state: "s" });
    expect(query("code=c&state=s&iss=https%3A%2F%2Faccounts.google.com")).toEqual({ kind: "google", code: "c", state: "s", iss: "https://accounts.google.com" });
  });

  it.each(["", "code=c", "state=s", "token=", "error=", "foo=bar"])("finds nothing valid in '%s'", (text) => {
    expect(query(text)).toEqual({ kind: "invalid" });
  });
});

const SIGNED_IN: AuthResponse = { user: USER, tokens: tokensExpiringIn(900) };

function harness(overrides: Partial<Pick<CallbackDeps, "verifyMagicLink" | "googleCallback">> = {}, storedState: string | null = null) {
  const storage = memoryStorage(storedState === null ? {} : { [GOOGLE_OAUTH_STATE_KEY]: storedState });
  const log: string[] = [];
  const deps: CallbackDeps = {
    verifyMagicLink: async (token) => {
      log.push(`verify ${token}`);
      return SIGNED_IN;
    },
    googleCallback: async (params) => {
      log.push(`google ${JSON.stringify(params)}`);
      return SIGNED_IN;
    },
    ...overrides,
    googleState: googleOAuthState(storage),
    signIn: (user) => log.push(`signed in ${user.email}`),
    notify: {
      success: (title, description) => log.push(`success: ${title} / ${description}`),
      error: (title, description) => log.push(`error: ${title} / ${description}`),
    },
  };
  return { deps, log, storage };
}

describe("completeCallback", () => {
  it("an error parameter: 'Authentication Error' and home", async () => {
    const { deps, log, storage } = harness({}, "s1");
    expect(await completeCallback({ kind: "error" }, deps)).toBe("/");
    expect(log).toEqual(["error: Authentication Error / Authentication was cancelled or failed."]);
    expect(storage.data.size).toBe(0);
  });

  it("no valid parameters: 'Invalid Request' and home", async () => {
    const { deps, log } = harness();
    expect(await completeCallback({ kind: "invalid" }, deps)).toBe("/");
    expect(log).toEqual(["error: Invalid Request / No valid authentication parameters found."]);
  });

  it("a token: verifies the magic link, signs in, 'Success!' and /console", async () => {
    const { deps, log } = harness();
    expect(await completeCallback({ kind: "magic-link", token: "abc" }, deps)).toBe("/console");
    expect(log).toEqual(["verify abc", "signed in ada@example.com", "success: Success! / You have been signed in successfully."]);
  });

  it("a token that fails: the server's detail, else 'Magic link verification failed', and home", async () => {
    const invalid = "This sign-in link is invalid, was already used or has expired. Please request a new one.";
    const { deps, log } = harness({ verifyMagicLink: () => Promise.reject(new ApiError(400, invalid)) });
    expect(await completeCallback({ kind: "magic-link", token: "abc" }, deps)).toBe("/");
    expect(log).toEqual([`error: Authentication Error / ${invalid}`]);

    const silent = harness({ verifyMagicLink: () => Promise.reject(new Error("")) });
    await completeCallback({ kind: "magic-link", token: "abc" }, silent.deps);
    expect(silent.log).toEqual(["error: Authentication Error / Magic link verification failed"]);
  });

  it("code and state matching the stored state: the Google callback, the state cleared, /console", async () => {
    const { deps, log, storage } = harness({}, "s1");
    expect(await completeCallback({ kind: "google", code: "c", state: "s1", iss: "https://op" }, deps)).toBe("/console");
    expect(log).toEqual([
      'google {"code":"c","state":"s1","iss":"https://op"}',
      "signed in ada@example.com",
      "success: Success! / You have been signed in successfully.",
    ]);
    expect(storage.getItem("google_oauth_state")).toBeNull();
  });

  it("a state that is not the stored one (or none stored): refused without calling the server", async () => {
    for (const stored of ["other", null]) {
      const { deps, log, storage } = harness({}, stored);
      expect(await completeCallback({ kind: "google", code: "c", state: "s1" }, deps)).toBe("/");
      expect(log).toEqual(["error: Authentication Error / This Google sign-in attempt is invalid or has expired. Please try again."]);
      expect(storage.data.size).toBe(0);
    }
  });

  it("a Google callback that fails: the detail, else 'Google authentication failed'; the state is cleared", async () => {
    const { deps, log, storage } = harness({ googleCallback: () => Promise.reject(new Error("")) }, "s1");
    expect(await completeCallback({ kind: "google", code: "c", state: "s1" }, deps)).toBe("/");
    expect(log).toEqual(["error: Authentication Error / Google authentication failed"]);
    expect(storage.data.size).toBe(0);
  });
});
