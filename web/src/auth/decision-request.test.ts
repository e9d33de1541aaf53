import { describe, expect, it } from "vitest";
import type { AuthorizationSource, RefreshResult } from "../api/authorized";
import { ApiError, InvalidResponseError } from "../api/client";
import { DECISION_ENDPOINTS, postDecision } from "./decision-request";
import { bearerOf, bodyOf, jsonResponse, serveFetch } from "./test-support";

const BODY = { question: "Ship on Friday?", categories: ["Yes", "No"], request_id: "r1" };
const DECISION = {
  final_decision: "No",
  total_votes: 3,
  vote_counts: { Yes: 1, No: 2 },
  individual_responses: { openai: "No", gemini: "No", claude: "Yes" },
  context_explanation: "No won with 2 of 3 votes.",
  decision_id: "d1",
  question: "Ship on Friday?",
};
const INVALID = { detail: "Could not validate credentials" };

const SIGNED_OUT: RefreshResult = { ok: false, error: "No refresh token available" };

function session(accessToken: string | null, refreshed: RefreshResult = accessToken ? { ok: true, accessToken: "access-2" } : SIGNED_OUT): AuthorizationSource {
  return { accessToken: () => accessToken, refresh: async () => refreshed };
}


describe("postDecision", () => {
  it("uses the public endpoint without a valid session", async () => {
    const calls = serveFetch(jsonResponse(200, DECISION));
    expect(await postDecision(BODY, session(null))).toEqual(DECISION);
    expect(calls.map((c) => [c.url, bearerOf(c.init), bodyOf(c.init)])).toEqual([[DECISION_ENDPOINTS.public, null, BODY]]);
    expect(DECISION_ENDPOINTS).toEqual({
      authenticated: "/api/ensembled-llm-categorical-decision",
      public: "/api/ensembled-llm-categorical-decision-public",
    });
  });

  it("renews an expired access token and decides as the user", async () => {
    const calls = serveFetch(jsonResponse(200, DECISION));
    expect(await postDecision(BODY, session(null, { ok: true, accessToken: "access-2" }))).toEqual(DECISION);
    expect(calls.map((c) => [c.url, bearerOf(c.init)])).toEqual([[DECISION_ENDPOINTS.authenticated, "Bearer access-2"]]);
  });

  it("uses the authenticated endpoint with the bearer token when signed in with a valid token", async () => {
    const calls = serveFetch(jsonResponse(200, DECISION));
    expect(await postDecision(BODY, session("access-1"))).toEqual(DECISION);
    expect(calls.map((c) => [c.url, bearerOf(c.init), bodyOf(c.init)])).toEqual([[DECISION_ENDPOINTS.authenticated, "Bearer access-1", BODY]]);
  });

  it("refreshes once on a 401 'Could not validate credentials' and retries", async () => {
    const calls = serveFetch(jsonResponse(401, INVALID), jsonResponse(200, DECISION));
    expect(await postDecision(BODY, session("access-1"))).toEqual(DECISION);
    expect(calls.map((c) => [c.url, bearerOf(c.init)])).toEqual([
      [DECISION_ENDPOINTS.authenticated, "Bearer access-1"],
      [DECISION_ENDPOINTS.authenticated, "Bearer access-2"],
    ]);
  });

  it("falls back to the public endpoint when the refresh fails", async () => {
    const calls = serveFetch(jsonResponse(401, INVALID), jsonResponse(200, DECISION));
    expect(await postDecision(BODY, session("access-1", { ok: false, error: "Token refresh failed" }))).toEqual(DECISION);
    expect(calls.map((c) => [c.url, bearerOf(c.init)])).toEqual([
      [DECISION_ENDPOINTS.authenticated, "Bearer access-1"],
      [DECISION_ENDPOINTS.public, null],
    ]);
  });

  it("passes other failures on (the playground words them): 413, 5xx, a second 401", async () => {
    serveFetch(jsonResponse(413, { detail: "too large" }));
    await expect(postDecision(BODY, session("access-1"))).rejects.toMatchObject({ status: 413 });
    serveFetch(jsonResponse(401, INVALID), jsonResponse(401, INVALID));
    const error = await postDecision(BODY, session("access-1")).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 401, message: "Could not validate credentials" });
  });

  it("throws InvalidResponseError for a 2xx body that is not JSON or not a decision response", async () => {
    serveFetch(new Response("<html>", { status: 200 }), jsonResponse(200, { final_decision: "No", total_votes: 3 }));
    await expect(postDecision(BODY, session(null))).rejects.toBeInstanceOf(InvalidResponseError);
    await expect(postDecision(BODY, session("access-1"))).rejects.toBeInstanceOf(InvalidResponseError);
  });
});
