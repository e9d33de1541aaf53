import { describe, expect, it } from "vitest";
import {
  API_KEY_HEADER,
  DecisionRequestSchema,
  SOCKET_EVENTS,
  SuggestionRequestSchema,
  SuggestionResponseSchema,
  V1_HEADERS,
  V1EnsembleRequestSchema,
  V1EnsembleResponseSchema,
} from "@sd/contracts";
import {
  API_KEY_ENV,
  API_PATHS,
  developerGuide,
  GUIDE_TABS,
  MCP_STDIO_PACKAGE,
  normaliseBaseUrl,
  quickStartSample,
  SAMPLE_DECISION_REQUEST,
  SAMPLE_ENSEMBLE_REQUEST,
  SAMPLE_ENSEMBLE_RESPONSE,
  SAMPLE_SUGGESTION_REQUEST,
  SAMPLE_SUGGESTION_RESPONSE,
  SDK_INSTALL,
  SDK_PACKAGE,
} from "./code-samples";

const BASE = "https://decide.example.com";
const guide = developerGuide(BASE);
const all = Object.values(guide).flat();
const code = (samples: { code: string }[]) => samples.map((s) => s.code).join("\n");
/** Samples that call the API (the install lines and the example answer do not). */
const calling = all.filter((s) => s.language !== "json" && !s.id.endsWith("-install"));

describe("developer guide samples", () => {
  it("has the tabs Python, JavaScript, TypeScript, REST API, OpenAI-compatible and MCP, each with samples", () => {
    expect(GUIDE_TABS.map((t) => t.label)).toEqual(["Python", "JavaScript", "TypeScript", "REST API", "OpenAI-compatible", "MCP"]);
    for (const tab of GUIDE_TABS) expect(guide[tab.value].length).toBeGreaterThan(0);
  });

  it("gives every sample a unique id, and every sample of a tab a unique title", () => {
    expect(new Set(all.map((s) => s.id)).size).toBe(all.length);
    for (const tab of GUIDE_TABS) expect(new Set(guide[tab.value].map((s) => s.title)).size, tab.label).toBe(guide[tab.value].length);
  });

  it("calls the given base URL and never another host", () => {
    for (const sample of calling) {
      expect(sample.code, sample.id).toContain(BASE);
      const hosts = sample.code.match(/https?:\/\/[^\s"'`/]+/g) ?? [];
      expect(new Set(hosts), sample.id).toEqual(new Set([BASE]));
    }
  });

  it("strips a trailing slash from the base URL", () => {
    expect(normaliseBaseUrl("http://127.0.0.1:3000/")).toBe("http://127.0.0.1:3000");
    const rest = code(developerGuide(`${BASE}/`).rest);
    expect(rest).toContain(`${BASE}${API_PATHS.ensemble}`);
    expect(rest).not.toContain(`${BASE}//`);
  });

  it("JavaScript and TypeScript: install the SDK, then decide, submit and wait, read the history and watch the votes with it", () => {
    for (const tab of ["javascript", "typescript"] as const) {
      const [install, ...samples] = guide[tab];
      expect(install?.code, tab).toContain(SDK_INSTALL);
      expect(samples.map((s) => s.title), tab).toEqual(["Make a decision", "Decide without waiting", "Decision history", "Watch the votes arrive"]);
      for (const sample of samples) {
        expect(sample.code, sample.id).toContain(`from "${SDK_PACKAGE}"`);
        expect(sample.code, sample.id).toContain(`apiKey: process.env.${API_KEY_ENV}`);
        // The SDK does the HTTP: no hand-written fetch or endpoint paths.
        expect(sample.code, sample.id).not.toMatch(/fetch\(|\/v1\/|\/api\//);
      }
      const all = code(samples);
      for (const call of ["client.decide(", "client.submit(", "client.waitFor(", "client.history(", "onVote"]) expect(all, `${tab} ${call}`).toContain(call);
    }
    // The TypeScript tab shows the types and the typed errors.
    expect(code(guide.typescript)).toMatch(/type EnsembleResult/);
    expect(code(guide.typescript)).toMatch(/instanceof RateLimitError/);
  });

  it("Python and REST: call /v1 with the key from SD_API_KEY in the SD-API-KEY header, and the public suggestion endpoint", () => {
    for (const tab of ["python", "rest"] as const) {
      const all = code(guide[tab]);
      expect(all, tab).toContain(API_PATHS.ensemble);
      expect(all, tab).toContain(API_PATHS.history);
      expect(all, tab).toContain(API_PATHS.suggestion);
      expect(all, tab).toContain(API_KEY_HEADER);
      expect(all, tab).toContain(API_KEY_ENV);
    }
    expect(code(guide.rest)).toContain(`${V1_HEADERS.prefer}: ${V1_HEADERS.respondAsync}`);
    expect(code(guide.rest)).toContain(V1_HEADERS.idempotencyKey);
    expect(code(guide.rest)).toContain(API_PATHS.decisionStatus);
  });

  it("sends requests the server accepts and shows answers the server gives", () => {
    expect(V1EnsembleRequestSchema.safeParse(SAMPLE_ENSEMBLE_REQUEST).success).toBe(true);
    expect(DecisionRequestSchema.safeParse(SAMPLE_DECISION_REQUEST).success).toBe(true);
    expect(SuggestionRequestSchema.safeParse(SAMPLE_SUGGESTION_REQUEST).success).toBe(true);
    expect(V1EnsembleResponseSchema.strict().safeParse(SAMPLE_ENSEMBLE_RESPONSE).success).toBe(true);
    expect(SuggestionResponseSchema.safeParse(SAMPLE_SUGGESTION_RESPONSE).success).toBe(true);
    for (const vote of SAMPLE_ENSEMBLE_RESPONSE.vote_details) expect(SAMPLE_ENSEMBLE_REQUEST.valid_responses).toContain(vote.response);
  });

  it("posts exactly the example bodies with curl", () => {
    const body = (id: string) => JSON.parse(/-d '([^']*)'/.exec(guide.rest.find((s) => s.id === id)?.code ?? "")?.[1] ?? "null") as unknown;
    expect(body("rest-decision")).toEqual(SAMPLE_ENSEMBLE_REQUEST);
    expect(body("rest-async")).toEqual(SAMPLE_ENSEMBLE_REQUEST);
    expect(body("rest-suggestions")).toEqual(SAMPLE_SUGGESTION_REQUEST);
    expect(JSON.parse(guide.rest.find((s) => s.id === "rest-decision-response")?.code ?? "")).toEqual(SAMPLE_ENSEMBLE_RESPONSE);
  });

  it("follows the live events in Python: join first, then votes and the final decision", () => {
    const live = guide.python.find((s) => s.id === "python-live")!;
    for (const event of [SOCKET_EVENTS.join, SOCKET_EVENTS.vote, SOCKET_EVENTS.final]) expect(live.code).toContain(`"${event}"`);
    expect(live.code).toMatch(/"request_id": request_id/);
    expect(live.code.indexOf(`"${SOCKET_EVENTS.join}"`)).toBeLessThan(live.code.indexOf(API_PATHS.ensemble));
  });

  it("MCP: configures a desktop client to start the stdio bridge with npx, pointed at the given base URL", () => {
    const sample = guide.mcp.find((s) => s.id === "mcp-stdio-config")!;
    expect(JSON.parse(sample.code)).toEqual({
      mcpServers: { "smart-decision": { command: "npx", args: ["-y", MCP_STDIO_PACKAGE], env: { SMART_DECISION_API_KEY: "sd_live_...", SMART_DECISION_URL: BASE } } },
    });
    expect(MCP_STDIO_PACKAGE).toBe("@smart-decision/mcp");
  });

  it("puts a curl decision through the playground's endpoint (no key needed) on the landing page", () => {
    const sample = quickStartSample(`${BASE}/`);
    expect(sample.code).toContain(`${BASE}${API_PATHS.decision}`);
    expect(sample.code).not.toContain(API_KEY_HEADER);
    expect(JSON.parse(/-d '([^']*)'/.exec(sample.code)?.[1] ?? "null")).toEqual(SAMPLE_DECISION_REQUEST);
  });
});
