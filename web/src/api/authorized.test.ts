import { z } from "zod";
import { describe, expect, it, vi } from "vitest";
import { bearerOf, bodyOf, jsonResponse, serveFetch } from "../auth/test-support";
import { authorizedRequest, isInvalidCredentials, SignedOutError, withAuthorization, type AuthorizationSource, type RefreshResult } from "./authorized";
import { ApiError } from "./client";

const Admin = z.object({ is_admin: z.boolean() });
const get = (path: string, source: AuthorizationSource) => authorizedRequest(path, { schema: Admin }, source);

/**
 * A session with the given access token whose refresh answers `refreshed`, counting refreshes.
 * `null` is a session whose access token expired (or none, with a failing refresh).
 */
function session(accessToken: string | null, refreshed: RefreshResult = { ok: true, accessToken: "access-2" }) {
  let refreshes = 0;
  const source: AuthorizationSource = {
    accessToken: () => accessToken,
    refresh: async () => {
      refreshes++;
      return refreshed;
    },
  };
  return { source, refreshes: () => refreshes };
}

const INVALID = { detail: "Could not validate credentials" };


const rejection = (promise: Promise<unknown>) => promise.then(() => null, (error: unknown) => error);

describe("authorizedRequest (withAuthorization around the API client)", () => {
  it("sends the access token as a bearer header and parses the answer with the schema", async () => {
    const calls = serveFetch(jsonResponse(200, { is_admin: true, extra: 1 }));
    expect(await get("/api/auth/admin-check", session("access-1").source)).toEqual({ is_admin: true });
    expect(bearerOf(calls[0]!.init)).toBe("Bearer access-1");
  });

  it("keeps the JSON body, the query and the request's own headers", async () => {
    const calls = serveFetch(jsonResponse(200, { is_admin: false }));
    const request = { method: "POST", body: { a: 1 }, query: { limit: 5 }, schema: Admin, init: { headers: { "x-trace": "t1" } } } as const;
    await authorizedRequest("/api/x", request, session("access-1").source);
    const headers = new Headers(calls[0]!.init.headers);
    expect(calls[0]!.url).toBe("/api/x?limit=5");
    expect(headers.get("content-type")).toBe("application/json");
    expect(headers.get("authorization")).toBe("Bearer access-1");
    expect(headers.get("x-trace")).toBe("t1");
    expect(bodyOf(calls[0]!.init)).toEqual({ a: 1 });
  });

  it("on a 401 'Could not validate credentials' refreshes once and retries with the new token", async () => {
    const { source, refreshes } = session("access-1");
    const calls = serveFetch(jsonResponse(401, INVALID), jsonResponse(200, { is_admin: false }));
    expect(await get("/api/auth/admin-check", source)).toEqual({ is_admin: false });
    expect(refreshes()).toBe(1);
    expect(calls.map((c) => bearerOf(c.init))).toEqual(["Bearer access-1", "Bearer access-2"]);
  });

  it("retries only once: a second 401 is the caller's error", async () => {
    const { source, refreshes } = session("access-1");
    serveFetch(jsonResponse(401, INVALID), jsonResponse(401, INVALID));
    const error = await rejection(get("/api/x", source));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).not.toBeInstanceOf(SignedOutError);
    expect(error).toMatchObject({ status: 401, message: "Could not validate credentials" });
    expect(refreshes()).toBe(1);
  });

  it("throws SignedOutError with the refresh's error when the refresh fails (the session logs out)", async () => {
    const { source } = session("access-1", { ok: false, error: "Token refresh failed" });
    const calls = serveFetch(jsonResponse(401, INVALID));
    const error = await rejection(get("/api/x", source));
    expect(error).toBeInstanceOf(SignedOutError);
    expect(error).toMatchObject({ status: 401, message: "Token refresh failed" });
    expect(calls).toHaveLength(1);
  });

  it("does not refresh on other errors (403, 500, a 401 with another text)", async () => {
    const { source, refreshes } = session("access-1");
    serveFetch(jsonResponse(403, { detail: "Forbidden" }), jsonResponse(500, { detail: "Boom" }), jsonResponse(401, { detail: "Not authenticated" }));
    for (const status of [403, 500, 401]) expect(await rejection(get("/api/x", source))).toMatchObject({ status });
    expect(refreshes()).toBe(0);
  });

  it("renews an expired access token before the call, and does not refresh again on its answer", async () => {
    const { source, refreshes } = session(null);
    const calls = serveFetch(jsonResponse(200, { is_admin: true }), jsonResponse(401, INVALID));
    expect(await get("/api/auth/admin-check", source)).toEqual({ is_admin: true });
    expect(calls.map((c) => bearerOf(c.init))).toEqual(["Bearer access-2"]);
    // Renewed, then refused: that was the one refresh.
    expect(await rejection(get("/api/x", source))).toMatchObject({ status: 401, message: "Could not validate credentials" });
    expect(refreshes()).toBe(2);
    expect(calls).toHaveLength(2);
  });

  it("throws SignedOutError without calling when there is no session to renew", async () => {
    const calls = serveFetch();
    const call = vi.fn(async () => "never");
    const error = await rejection(withAuthorization(session(null, { ok: false, error: "No refresh token available" }).source, call));
    expect(error).toBeInstanceOf(SignedOutError);
    expect(error).toMatchObject({ status: 401, message: "No refresh token available" });
    expect(call).not.toHaveBeenCalled();
    expect(calls).toHaveLength(0);
  });
});

describe("isInvalidCredentials", () => {
  it("is true only for a 401 saying 'Could not validate credentials'", () => {
    expect(isInvalidCredentials(new ApiError(401, "Could not validate credentials"))).toBe(true);
    expect(isInvalidCredentials(new ApiError(403, "Could not validate credentials"))).toBe(false);
    expect(isInvalidCredentials(new ApiError(401, "HTTP 401"))).toBe(false);
    expect(isInvalidCredentials(new Error("Could not validate credentials"))).toBe(false);
  });
});
