import { describe, expect, it } from "vitest";
import {
  DecisionRequestSchema,
  DecisionResponseSchema,
  SOCKET_EVENTS,
  SuggestionRequestSchema,
  SuggestionResponseSchema,
} from "@sd/contracts";
import {
  API_PATHS,
  developerGuide,
  GUIDE_TABS,
  normaliseBaseUrl,
  quickStartSample,
  SAMPLE_DECISION_REQUEST,
  SAMPLE_DECISION_RESPONSE,
  SAMPLE_SUGGESTION_REQUEST,
  SAMPLE_SUGGESTION_RESPONSE,
} from "./code-samples";

const BASE = "https://decide.example.com";
const guide = developerGuide(BASE);
const all = Object.values(guide).flat();

describe("developer guide samples", () => {
  it("has the four tabs Python, JavaScript, TypeScript, REST API, each with samples", () => {
    expect(GUIDE_TABS.map((t) => t.label)).toEqual(["Python", "JavaScript", "TypeScript", "REST API"]);
    for (const tab of GUIDE_TABS) expect(guide[tab.value].length).toBeGreaterThan(0);
  });

  it("gives every sample a unique id", () => {
    expect(new Set(all.map((s) => s.id)).size).toBe(all.length);
  });

  it("calls the given base URL and never another host", () => {
    for (const sample of all.filter((s) => s.language !== "json")) {
      expect(sample.code, sample.id).toContain(BASE);
      const hosts = sample.code.match(/https?:\/\/[^\s"'`/]+/g) ?? [];
      expect(new Set(hosts), sample.id).toEqual(new Set([BASE]));
    }
  });

  it("strips a trailing slash from the base URL", () => {
    expect(normaliseBaseUrl("http://127.0.0.1:3000/")).toBe("http://127.0.0.1:3000");
    const code = developerGuide(`${BASE}/`).rest.map((s) => s.code).join("\n");
    expect(code).toContain(`${BASE}${API_PATHS.decision}`);
    expect(code).not.toContain(`${BASE}//`);
  });

  it("uses the decision endpoint in every language and the suggestion endpoint in every tab", () => {
    for (const tab of GUIDE_TABS) {
      const code = guide[tab.value].map((s) => s.code).join("\n");
      expect(code, tab.label).toContain(API_PATHS.decision);
      expect(code, tab.label).toContain(API_PATHS.suggestion);
    }
  });

  it("sends requests the server accepts and shows answers the server gives", () => {
    expect(DecisionRequestSchema.safeParse(SAMPLE_DECISION_REQUEST).success).toBe(true);
    expect(SuggestionRequestSchema.safeParse(SAMPLE_SUGGESTION_REQUEST).success).toBe(true);
    expect(DecisionResponseSchema.strict().safeParse(SAMPLE_DECISION_RESPONSE).success).toBe(true);
    expect(SuggestionResponseSchema.safeParse(SAMPLE_SUGGESTION_RESPONSE).success).toBe(true);
    expect(Object.keys(SAMPLE_DECISION_RESPONSE.vote_counts).sort()).toEqual([...SAMPLE_DECISION_REQUEST.categories].sort());
  });

  it("posts exactly the example bodies with curl", () => {
    const [decision, answer, suggestion] = guide.rest;
    const body = (code: string | undefined) => JSON.parse(/-d '([^']*)'/.exec(code ?? "")?.[1] ?? "null") as unknown;
    expect(body(decision?.code)).toEqual(SAMPLE_DECISION_REQUEST);
    expect(body(suggestion?.code)).toEqual(SAMPLE_SUGGESTION_REQUEST);
    expect(JSON.parse(answer?.code ?? "")).toEqual(SAMPLE_DECISION_RESPONSE);
  });

  it("follows the live events in Python, JavaScript and TypeScript: join first, then votes and the final decision", () => {
    for (const tab of ["python", "javascript", "typescript"] as const) {
      const code = guide[tab].map((s) => s.code).join("\n");
      // The decision's own events; the history room (history:*) belongs to the signed-in web app.
      for (const event of [SOCKET_EVENTS.join, SOCKET_EVENTS.vote, SOCKET_EVENTS.final]) expect(code, tab).toContain(`"${event}"`);
      expect(code, tab).toMatch(/request_id/);
    }
    for (const live of [...guide.python, ...guide.javascript].filter((s) => s.id.endsWith("-live"))) {
      expect(live.code.indexOf(`"${SOCKET_EVENTS.join}"`), live.id).toBeLessThan(live.code.indexOf(API_PATHS.decision));
    }
  });

  it("puts the curl decision request on the landing page", () => {
    expect(quickStartSample(`${BASE}/`)).toEqual(guide.rest[0]);
  });
});
