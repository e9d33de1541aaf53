import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import {
  API_KEY_HEADER,
  ApiKeySchema,
  AUTH_MESSAGES,
  PRESET_LIMITS,
  PRESET_MESSAGES,
  PresetListSchema,
  PresetSchema,
  V1EnsembleResponseSchema,
  type AuthResponse,
  type Preset,
  type PresetSettings,
} from "@sd/contracts";
import { useEmulator } from "@sd/provider-emulator/testing";
import { callApi, type ApiAnswer } from "@sd/testing/history";
import { savePreset } from "@sd/testing/presets";
import { useStackWithMail } from "@sd/testing/stack-with-mail";

const PRESETS = "/api/presets";
const emulator = useEmulator();
const stack = useStackWithMail(emulator, { MAGIC_LINK_PER_IP_PER_HOUR: "1000", API_KEY_RATE_LIMIT_PER_MINUTE: "1000" });

let alice: AuthResponse;
let bob: AuthResponse;
beforeAll(async () => {
  [alice, bob] = [await stack.signIn(), await stack.signIn()];
});

const as = (user: AuthResponse | null, path: string, init: { method?: string; body?: unknown } = {}) => callApi(stack.url, path, user?.tokens.access_token ?? null, init);

const TWO_MODELS: PresetSettings = { ensemble_mode: "weighted_voting", models: ["openai", "claude"], early_quorum: false };

const save = (user: AuthResponse, name: string, settings: PresetSettings = TWO_MODELS): Promise<Preset> => savePreset(stack.url, user.tokens.access_token, name, settings);

const uniqueName = (label: string) => `${label} ${randomUUID().slice(0, 8)}`;

async function newKey(user: AuthResponse): Promise<string> {
  const answer = await as(user, "/api/api-keys", { body: { name: "presets" } });
  expect(answer.status, answer.text).toBe(201);
  return ApiKeySchema.parse(answer.body).keyvalue!;
}

async function ensemble(key: string, body: Record<string, unknown>): Promise<ApiAnswer> {
  const response = await fetch(`${stack.url}/v1/ensemble`, { method: "POST", headers: { [API_KEY_HEADER]: key, "content-type": "application/json" }, body: JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text) as Record<string, unknown>, text, headers: response.headers };
}

describe("panel presets over HTTP", () => {
  it("answers 401 on every preset endpoint without a valid bearer token", async () => {
    const preset = await save(alice, uniqueName("Guarded"));
    const calls: [string, string, unknown?][] = [
      ["GET", PRESETS],
      ["POST", PRESETS, { name: "x", settings: {} }],
      ["GET", `${PRESETS}/${preset.id}`],
      ["PATCH", `${PRESETS}/${preset.id}`, { name: "y" }],
      ["DELETE", `${PRESETS}/${preset.id}`],
    ];
    for (const token of [null, "not-a-token"]) {
      for (const [method, path, body] of calls) {
        const answer = await callApi(stack.url, path, token, { method, body });
        expect([answer.status, answer.body], `${method} ${path}`).toEqual([401, { detail: AUTH_MESSAGES.invalidCredentials }]);
      }
    }
    expect((await as(alice, `${PRESETS}/${preset.id}`)).status).toBe(200);
  });

  it("creates, lists by name, reads, renames, replaces the settings of and deletes a preset", async () => {
    const user = await stack.signIn();
    const created = await save(user, "  Triage  ");
    expect(created).toMatchObject({ name: "Triage", settings: TWO_MODELS });
    expect(created.created_at).toBe(created.updated_at);
    await save(user, "Alpha", {});

    expect(PresetListSchema.parse((await as(user, PRESETS)).body).map((preset) => preset.name)).toEqual(["Alpha", "Triage"]);
    expect(PresetSchema.parse((await as(user, `${PRESETS}/${created.id}`)).body)).toEqual(created);

    const renamed = await as(user, `${PRESETS}/${created.id}`, { method: "PATCH", body: { name: "Quick triage" } });
    expect(renamed.status, renamed.text).toBe(200);
    expect(PresetSchema.parse(renamed.body)).toMatchObject({ id: created.id, name: "Quick triage", settings: TWO_MODELS, created_at: created.created_at });

    const judge = { ensemble_mode: "judge", judge_model: "gemini" } as const;
    const replaced = await as(user, `${PRESETS}/${created.id}`, { method: "PATCH", body: { settings: judge } });
    expect(PresetSchema.parse(replaced.body)).toMatchObject({ name: "Quick triage", settings: judge });

    const deleted = await as(user, `${PRESETS}/${created.id}`, { method: "DELETE" });
    expect([deleted.status, deleted.body]).toEqual([200, { success: true, message: PRESET_MESSAGES.deleted }]);
    expect((await as(user, `${PRESETS}/${created.id}`)).status).toBe(404);
    expect(PresetListSchema.parse((await as(user, PRESETS)).body).map((preset) => preset.name)).toEqual(["Alpha"]);
  });

  it("answers 404 for another user's preset, exactly as for an unknown id, and leaves it untouched", async () => {
    const preset = await save(alice, uniqueName("Private"));
    for (const id of [preset.id, randomUUID()]) {
      for (const [method, body] of [["GET"], ["PATCH", { name: "Stolen" }], ["DELETE"]] as const) {
        const answer = await as(bob, `${PRESETS}/${id}`, { method, body });
        expect([answer.status, answer.body], `${method} ${id === preset.id ? "Alice's" : "unknown"}`).toEqual([404, { detail: PRESET_MESSAGES.notFound }]);
      }
    }
    expect(PresetListSchema.parse((await as(bob, PRESETS)).body).map((p) => p.id)).not.toContain(preset.id);
    expect(PresetSchema.parse((await as(alice, `${PRESETS}/${preset.id}`)).body)).toEqual(preset);
  });

  it("answers 409 for a name the user already has (on create and on rename), not for another user's", async () => {
    const name = uniqueName("Taken");
    await save(alice, name);
    const again = await as(alice, PRESETS, { body: { name: ` ${name} `, settings: {} } });
    expect([again.status, again.body]).toEqual([409, { detail: PRESET_MESSAGES.nameTaken(name) }]);
    const other = await save(alice, uniqueName("Other"));
    const rename = await as(alice, `${PRESETS}/${other.id}`, { method: "PATCH", body: { name } });
    expect([rename.status, rename.body]).toEqual([409, { detail: PRESET_MESSAGES.nameTaken(name) }]);
    await save(bob, name);
  });

  it("answers 400 with what to fix for a missing or long name, an unknown model or judge, an unknown field and an empty change", async () => {
    const preset = await save(alice, uniqueName("Valid"));
    const refusals: [string, string, unknown, string][] = [
      ["POST", PRESETS, { name: "   ", settings: {} }, PRESET_MESSAGES.nameRequired],
      ["POST", PRESETS, { settings: {} }, PRESET_MESSAGES.nameRequired],
      ["POST", PRESETS, { name: "x".repeat(PRESET_LIMITS.maxNameLength + 1), settings: {} }, PRESET_MESSAGES.nameTooLong],
      ["POST", PRESETS, { name: "Bad", settings: { models: ["openai", "llama9"] } }, "Unknown model: llama9. Choose from openai, gemini, claude."],
      ["POST", PRESETS, { name: "Bad", settings: { ensemble_mode: "judge", judge_model: "nobody" } }, "Unknown judge_model: nobody. Choose from openai, gemini, claude."],
      ["POST", PRESETS, { name: "Bad", settings: { ensemble_mode: "coin_flip" } }, "ensemble_mode must be one of majority_voting, weighted_voting, judge, gossip."],
      ["PATCH", `${PRESETS}/${preset.id}`, {}, PRESET_MESSAGES.nothingToChange],
      ["PATCH", `${PRESETS}/${preset.id}`, { settings: { models: [] } }, "Choose at least one model."],
    ];
    for (const [method, path, body, detail] of refusals) {
      const answer = await as(alice, path, { method, body });
      expect([answer.status, answer.body], `${method} ${JSON.stringify(body)}`).toEqual([400, { detail }]);
    }
    const unknownField = await as(alice, PRESETS, { body: { name: "Bad", settings: { weights: { openai: 2 } } } });
    expect(unknownField.status, unknownField.text).toBe(400);
    expect(PresetSchema.parse((await as(alice, `${PRESETS}/${preset.id}`)).body)).toEqual(preset);
  });

  it(`keeps at most ${PRESET_LIMITS.maxPerUser} presets per user and says so`, async () => {
    const user = await stack.signIn();
    for (let i = 0; i < PRESET_LIMITS.maxPerUser; i++) await save(user, `Preset ${i}`, {});
    const over = await as(user, PRESETS, { body: { name: "One more", settings: {} } });
    expect([over.status, over.body]).toEqual([400, { detail: PRESET_MESSAGES.tooMany }]);
    expect(PresetListSchema.parse((await as(user, PRESETS)).body)).toHaveLength(PRESET_LIMITS.maxPerUser);
  });
});

describe("POST /v1/ensemble with preset", () => {
  it("decides with the preset's models and mode, as the stored decision shows", async () => {
    const name = uniqueName("Two models");
    await save(alice, name);
    const answer = await ensemble(await newKey(alice), { prompt: "[preset] Ship it?", valid_responses: ["Yes", "No"], preset: name });
    expect(answer.status, answer.text).toBe(200);
    const result = V1EnsembleResponseSchema.parse(answer.body);
    expect(result.vote_details.map((vote) => vote.llm_name).sort()).toEqual(["claude", "openai"]);
    const stored = (await stack.store.decisions.findById(result.decision_id))!;
    expect(stored.ensemble_mode).toBe("weighted_voting");
    expect(stored.ensemble?.panel).toEqual(["openai", "claude"]);
    // The preset turned early quorum off, over /v1's default of on.
    expect(stored.ensemble?.early_quorum).toBeNull();
    expect(emulator.calls().map((call) => call.vendor).sort()).toEqual(["anthropic", "openai"]);
  });

  it("lets the request's own fields override the preset's", async () => {
    const name = uniqueName("Overridden");
    await save(alice, name);
    const answer = await ensemble(await newKey(alice), { prompt: "[override] Ship it?", valid_responses: ["Yes", "No"], preset: name, ensemble_mode: "majority_voting", models: ["gemini", "claude"] });
    expect(answer.status, answer.text).toBe(200);
    const stored = (await stack.store.decisions.findById(V1EnsembleResponseSchema.parse(answer.body).decision_id))!;
    expect([stored.ensemble_mode, stored.ensemble?.panel]).toEqual(["majority_voting", ["gemini", "claude"]]);
  });

  it("answers 422 with a clear message for a preset the key's owner does not have (another user's included), asking no model", async () => {
    const bobs = uniqueName("Bob's");
    await save(bob, bobs);
    const key = await newKey(alice);
    for (const name of ["Nonexistent", bobs]) {
      const answer = await ensemble(key, { prompt: "Ship it?", valid_responses: ["Yes", "No"], preset: name });
      expect([answer.status, answer.body]).toEqual([422, { detail: PRESET_MESSAGES.unknownPreset(name) }]);
    }
    expect(emulator.calls()).toEqual([]);
  });
});
