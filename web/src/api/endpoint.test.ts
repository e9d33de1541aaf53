import type { AdminCheckResponse } from "@sd/contracts";
import { ENDPOINTS } from "@sd/contracts/endpoints";
import { describe, expect, expectTypeOf, it } from "vitest";
import { bearerOf, bodyOf, jsonResponse, serveFetch } from "../auth/test-support";
import type { AuthorizationSource } from "./authorized";
import { ApiError, InvalidResponseError } from "./client";
import { callEndpoint, endpointRequest, successSchema, type EndpointResult } from "./endpoint";

const INVALID = { detail: "Could not validate credentials" };
const KEY = { id: "k1", name: "Bot", workspace: "Default", created_by: "u1", active_status: false, created_at: "2025-01-01T00:00:00.000Z", last_used_at: null, cost: 0, spend_this_month_usd: 0, requests_this_month: 0, monthly_spend_limit_usd: null };

function session(accessToken: string | null): AuthorizationSource & { refreshes: number } {
  const source = {
    refreshes: 0,
    accessToken: () => accessToken,
    refresh: async () => {
      source.refreshes++;
      return { ok: true as const, accessToken: "access-2" };
    },
  };
  return source;
}

const rejection = (promise: Promise<unknown>) => promise.then(() => null, (error: unknown) => error);

describe("callEndpoint: the request comes from the endpoint's definition", () => {
  it("fills the path's parameters, URL-encoded, and uses the endpoint's method", async () => {
    const calls = serveFetch(jsonResponse(200, { success: true, message: "deleted" }));
    await callEndpoint(ENDPOINTS.deleteApiKey, { params: { id: "a/b c?d#é" } }, session("access-1"));
    expect(calls[0]!.url).toBe("/api/api-keys/a%2Fb%20c%3Fd%23%C3%A9");
    expect(calls[0]!.init.method).toBe("DELETE");
    expect(calls[0]!.init.body).toBeUndefined();
  });

  it("fills a parameter in the middle of the path and sends a JSON body with the method", async () => {
    const calls = serveFetch(jsonResponse(200, { api_key: "sd_live_x" }), jsonResponse(200, KEY));
    expect(await callEndpoint(ENDPOINTS.revealApiKey, { params: { id: "k 1" } }, session("access-1"))).toEqual({ api_key: "sd_live_x" });
    expect(await callEndpoint(ENDPOINTS.updateApiKey, { params: { id: "k1" }, body: { active_status: false } }, session("access-1"))).toEqual(KEY);
    expect(calls.map((c) => [c.url, c.init.method])).toEqual([
      ["/api/api-keys/k%201/reveal", "GET"],
      ["/api/api-keys/k1", "PUT"],
    ]);
    expect(new Headers(calls[1]!.init.headers).get("content-type")).toBe("application/json");
    expect(bodyOf(calls[1]!.init)).toEqual({ active_status: false });
  });

  it("appends the query as apiRequest does", async () => {
    const calls = serveFetch(jsonResponse(200, { success: true, period: "week", decisions: [] }));
    await callEndpoint(ENDPOINTS.adminRecentDecisions, { query: { period: "week" } }, session("access-1"));
    expect(calls[0]!.url).toBe("/api/admin/recent-decisions?period=week");
    expect(calls[0]!.init.method).toBe("GET");
  });

  it("refuses a call with a missing path parameter before sending it", async () => {
    const calls = serveFetch();
    // @ts-expect-error the endpoint's path names `id`
    expect(() => endpointRequest(ENDPOINTS.getMyDecision, { params: { decisionId: "d1" } })).toThrow(/path parameter id is missing/);
    expect(calls).toHaveLength(0);
  });
});

describe("callEndpoint: the answer is the endpoint's success answer", () => {
  it("parses a 200 answer with the 200 schema, dropping unknown fields", async () => {
    serveFetch(jsonResponse(200, { is_admin: true, extra: 1 }));
    expect(await callEndpoint(ENDPOINTS.adminCheck, {}, session("access-1"))).toEqual({ is_admin: true });
  });

  it("uses the 201 schema for an endpoint that answers 201", async () => {
    expect(successSchema(ENDPOINTS.createApiKey)).toBe(ENDPOINTS.createApiKey.responses[201].body.schema);
    const calls = serveFetch(jsonResponse(201, { ...KEY, keyvalue: "sd_live_x" }));
    expect(await callEndpoint(ENDPOINTS.createApiKey, { body: { name: "Bot" } }, session("access-1"))).toEqual({ ...KEY, keyvalue: "sd_live_x" });
    expect(calls[0]!.init.method).toBe("POST");
  });

  it("uses the 202 schema for an endpoint that answers 202 (a queued webhook test event)", async () => {
    expect(successSchema(ENDPOINTS.sendWebhookTest)).toBe(ENDPOINTS.sendWebhookTest.responses[202].body.schema);
    serveFetch(jsonResponse(202, { event_id: "evt_test_1", message: "Queued" }));
    expect(await callEndpoint(ENDPOINTS.sendWebhookTest, { params: { id: "w1" } }, session("access-1"))).toEqual({ event_id: "evt_test_1", message: "Queued" });
  });

  it("throws InvalidResponseError when a 2xx answer does not match the endpoint's schema", async () => {
    serveFetch(jsonResponse(200, { is_admin: "yes" }), jsonResponse(200, { providers: "none" }));
    const asAdmin = await rejection(callEndpoint(ENDPOINTS.adminCheck, {}, session("access-1")));
    const providers = await rejection(callEndpoint(ENDPOINTS.listProviders, {}));
    for (const error of [asAdmin, providers]) {
      expect(error).toBeInstanceOf(InvalidResponseError);
      expect(error).toMatchObject({ status: 200 });
    }
  });

  it("types the result from the schema", () => {
    expectTypeOf<EndpointResult<typeof ENDPOINTS.adminCheck>>().toEqualTypeOf<AdminCheckResponse>();
    expectTypeOf<EndpointResult<typeof ENDPOINTS.revealApiKey>>().toEqualTypeOf<{ api_key: string }>();
  });
});

describe("callEndpoint: who calls follows the endpoint's access", () => {
  it("a bearer endpoint is called as the session's user, refreshing once on an expired token", async () => {
    const user = session("access-1");
    const calls = serveFetch(jsonResponse(401, INVALID), jsonResponse(200, { is_admin: false }));
    expect(await callEndpoint(ENDPOINTS.adminCheck, {}, user)).toEqual({ is_admin: false });
    expect(calls.map((c) => bearerOf(c.init))).toEqual(["Bearer access-1", "Bearer access-2"]);
    expect(user.refreshes).toBe(1);
  });

  it("a public endpoint is called without a token", async () => {
    const calls = serveFetch(jsonResponse(200, { success: true, message: "Thanks" }));
    await callEndpoint(ENDPOINTS.joinWaitlist, { body: { email: "ada@example.com" } });
    expect(calls[0]!.url).toBe("/api/email-request");
    expect(calls[0]!.init.method).toBe("POST");
    expect(bearerOf(calls[0]!.init)).toBeNull();
  });

  it("an optional-bearer endpoint sends the token only when the session has one", async () => {
    const answer = { success: true, message: "0 images", imageAssets: [], total: 0 };
    const calls = serveFetch(jsonResponse(200, answer), jsonResponse(200, answer));
    await callEndpoint(ENDPOINTS.listDecisionImageAssets, { params: { id: "d1" } }, session("access-1"));
    await callEndpoint(ENDPOINTS.listDecisionImageAssets, { params: { id: "d1" } }, session(null));
    expect(calls.map((c) => [c.url, bearerOf(c.init)])).toEqual([
      ["/api/image-assets/decision/d1", "Bearer access-1"],
      ["/api/image-assets/decision/d1", null],
    ]);
  });

  it("passes error answers on as apiRequest reads them", async () => {
    serveFetch(jsonResponse(403, { detail: "Admin access required" }));
    const error = await rejection(callEndpoint(ENDPOINTS.adminSystemHealth, {}, session("access-1")));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 403, message: "Admin access required", source: "detail" });
  });

  it("checks the call's parameters and session against the endpoint at compile time", () => {
    // Never run: each line is a call tsc must refuse.
    const refused = () => {
      // @ts-expect-error a bearer endpoint needs the session
      void callEndpoint(ENDPOINTS.adminCheck, {});
      // @ts-expect-error the path parameter is required
      void callEndpoint(ENDPOINTS.getMyDecision, {}, session(null));
      // @ts-expect-error the body must match the endpoint's schema
      void callEndpoint(ENDPOINTS.updateApiKey, { params: { id: "k1" }, body: { active: true } }, session(null));
      // @ts-expect-error the query names only the endpoint's parameters
      void callEndpoint(ENDPOINTS.adminUsageStats, { query: { periode: "week" } }, session(null));
    };
    expect(refused).toBeTypeOf("function");
  });
});
