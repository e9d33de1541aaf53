import type { AuthTokens, AuthUser } from "@sd/contracts";
import { afterEach, vi } from "vitest";
import type { KeyValueStorage } from "./session";

/** Test helpers for the auth module's unit tests (not part of the app). */

const base64Url = (text: string) =>
  btoa(String.fromCharCode(...new TextEncoder().encode(text)))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");

/** An unsigned JWT with the given payload (the client never verifies signatures). */
export const fakeJwt = (payload: Record<string, unknown>): string =>
  `${base64Url(JSON.stringify({ alg: "HS256", typ: "JWT" }))}.${base64Url(JSON.stringify(payload))}.signature`;

export const NOW = Date.UTC(2025, 8, 8, 12, 0, 0);
const nowSeconds = NOW / 1000;

export const USER: AuthUser = { id: "u1", email: "ada@example.com", name: "Ada Lovelace", is_verified: true, avatar_url: null };

/** Tokens whose access token expires `inSeconds` after NOW (negative: already expired). */
export const tokensExpiringIn = (inSeconds: number, refresh = "refresh-1"): AuthTokens => ({
  access_token: fakeJwt({ sub: "u1", exp: nowSeconds + inSeconds }),
  refresh_token: refresh,
  expires_in: 900,
  token_type: "bearer",
});

/** Web Storage in memory. */
export function memoryStorage(initial: Record<string, string> = {}): KeyValueStorage & { data: Map<string, string> } {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (key) => data.get(key) ?? null,
    setItem: (key, value) => void data.set(key, String(value)),
    removeItem: (key) => void data.delete(key),
  };
}

/** A JSON Response as the gateway answers. */
export const jsonResponse = (status: number, body: unknown): Response =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

export interface FetchCall {
  url: string;
  init: RequestInit;
}

/**
 * Stubs the global fetch (the network boundary) with one answer per call, in order: a Response,
 * or an Error thrown as a network failure. Records every call. Restored after each test.
 */
export function serveFetch(...answers: (Response | Error)[]): FetchCall[] {
  const calls: FetchCall[] = [];
  vi.stubGlobal("fetch", async (url: string, init: RequestInit = {}) => {
    calls.push({ url, init });
    const answer = answers.shift();
    if (!answer) throw new Error("unexpected call");
    if (answer instanceof Error) throw answer;
    return answer;
  });
  return calls;
}
afterEach(() => {
  vi.unstubAllGlobals();
});

export const bearerOf = (init: RequestInit): string | null => new Headers(init.headers).get("authorization");
export const bodyOf = (init: RequestInit): unknown => JSON.parse(String(init.body));
