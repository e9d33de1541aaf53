import { describe, expect, it } from "vitest";
import { DEFAULT_PROVIDERS, type ProviderConfig } from "@sd/contracts";
import { emulatorBaseUrl, startEmulator, type EmulatorResponse } from "@sd/provider-emulator";
import { ProviderError, createProvider, type ModelProvider } from "./index";
import { emulatedProviderConfig } from "./test-config";
import { useEmulator } from "@sd/provider-emulator/testing";

const emu = useEmulator();

const VENDORS = [
  { vendor: "openai", defaults: DEFAULT_PROVIDERS.openai },
  // Not the default claude-sonnet-4-5: the SDK console.warns on every call with it (deprecated, EOL 2026-11-30).
  { vendor: "anthropic", defaults: { ...DEFAULT_PROVIDERS.claude, model: "claude-emulated" } },
  { vendor: "gemini", defaults: DEFAULT_PROVIDERS.gemini },
] as const;

const CATEGORIES = ["Yes", "No", "Maybe"];
// 1x1 transparent PNG.
const PNG = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=";

/** Runs `call`, expecting it to fail with a ProviderError, and returns that error. */
async function failure(call: Promise<unknown>): Promise<ProviderError> {
  const error = await call.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

describe.each(VENDORS)("$vendor adapter against the emulator", ({ vendor, defaults }) => {
  const config = (overrides: Partial<ProviderConfig> = {}): ProviderConfig =>
    emulatedProviderConfig(emu.url, { vendor, model: defaults.model, label: defaults.label }, overrides);
  const provider = (overrides?: Partial<ProviderConfig>): ModelProvider => createProvider(config(overrides));
  const vote = (question = "Should I take the umbrella?", p = provider()) => p.vote({ question, categories: CATEGORIES, images: [] });
  /** The next call to this vendor answers with `respond`. */
  const script = (respond: EmulatorResponse) => emu.addRules({ match: { vendor }, times: 1, respond });

  it("votes for a category of the enum with a confidence and the reported model", async () => {
    const answer = await vote();
    expect(CATEGORIES).toContain(answer.category);
    expect(answer.confidence).toBeGreaterThanOrEqual(0.55);
    expect(answer.confidence).toBeLessThanOrEqual(0.95);
    expect(answer.rationale).toContain(answer.category);
    expect(answer.modelVersion).toBe(`${defaults.model} (simulated)`);
    expect(JSON.parse(answer.raw)).toMatchObject({ category: answer.category });
    expect(emu.calls()).toEqual([expect.objectContaining({ vendor, model: defaults.model, image_count: 0 })]);
    expect(emu.calls()[0]!.prompt_text).toContain("Should I take the umbrella?");
  });

  it("reports the tokens the vendor says the call used", async () => {
    // Reasoning tokens are billed as output: whichever way the vendor itemises them, they count there.
    script({ kind: "answer", usage: { input_tokens: 321, output_tokens: 45, reasoning_tokens: 12 } });
    expect((await vote()).usage).toEqual({ input_tokens: 321, output_tokens: 45 });
  });

  it("reports the emulator's estimate, the same for the same question, more for a longer one", async () => {
    const first = await vote("Should I take the umbrella?");
    const again = await vote("Should I take the umbrella?");
    const longer = await vote(`Should I take the umbrella? ${"It might rain later today. ".repeat(20)}`);
    expect(first.usage).toEqual({ input_tokens: expect.any(Number), output_tokens: expect.any(Number) });
    expect(first.usage!.input_tokens).toBeGreaterThan(0);
    expect(first.usage!.output_tokens).toBeGreaterThan(0);
    expect(again.usage).toEqual(first.usage);
    expect(longer.usage!.input_tokens).toBeGreaterThan(first.usage!.input_tokens + 100);
  });

  it("reports no usage when the vendor sends none", async () => {
    script({ kind: "answer", usage: null });
    const answer = await vote();
    expect(CATEGORIES).toContain(answer.category);
    expect(answer.usage).toBeNull();
  });

  it("keeps the tokens of an answer it cannot use (the vendor billed them), and has none for a failed call", async () => {
    script({ kind: "answer", category: "Purple", usage: { input_tokens: 200, output_tokens: 30 } });
    expect(await failure(vote())).toMatchObject({ kind: "invalid_answer", usage: { input_tokens: 200, output_tokens: 30 } });
    script({ kind: "malformed", usage: { input_tokens: 150, output_tokens: 9 } });
    expect(await failure(vote())).toMatchObject({ kind: "malformed", usage: { input_tokens: 150, output_tokens: 9 } });
    script({ kind: "error", status: 500 });
    expect(await failure(vote())).toMatchObject({ kind: "server", usage: null });
  });

  it("reports the model without the simulated label when not simulated", async () => {
    expect((await vote("q", provider({ simulated: false }))).modelVersion).toBe(defaults.model);
  });

  it("normalises case and whitespace to the category as spelled in the request", async () => {
    script({ kind: "answer", category: " yes ", confidence: 1.7 });
    const answer = await vote();
    expect(answer.category).toBe("Yes");
    expect(answer.confidence).toBe(1);
    expect(JSON.parse(answer.raw)).toMatchObject({ category: " yes " });
  });

  it("rejects an answer outside the categories as invalid_answer", async () => {
    script({ kind: "answer", category: "Purple" });
    const error = await failure(vote());
    expect(error).toMatchObject({ kind: "invalid_answer", retryable: false });
    expect(error.message).toContain('"Purple"');
    expect(error.raw).toContain("Purple");
  });

  it("maps 429 with retry-after to rate_limited with the back-off in ms", async () => {
    script({ kind: "error", status: 429, retry_after_s: 2 });
    expect(await failure(vote())).toMatchObject({ kind: "rate_limited", retryable: true, retryAfterMs: 2000, status: 429 });
    expect(emu.calls()).toHaveLength(1); // one HTTP attempt: SDK retries are off
  });

  it("maps 500 to a retryable server error after a single attempt", async () => {
    script({ kind: "error", status: 500, message: "boom" });
    const error = await failure(vote());
    expect(error).toMatchObject({ kind: "server", retryable: true, status: 500, retryAfterMs: null });
    expect(error.message).toMatch(/API error 500: .*boom/);
    expect(error.message).not.toMatch(/Error fetching from|500 boom/);
    expect(emu.calls()).toHaveLength(1);
  });

  it("maps 401 to auth and 400 to client, neither retryable", async () => {
    script({ kind: "error", status: 401 });
    expect(await failure(vote())).toMatchObject({ kind: "auth", retryable: false, status: 401 });
    script({ kind: "error", status: 400 });
    expect(await failure(vote())).toMatchObject({ kind: "client", retryable: false, status: 400 });
  });

  it("times out a hanging request after timeoutMs", async () => {
    script({ kind: "hang" });
    const started = Date.now();
    const error = await failure(vote("q", provider({ timeoutMs: 300 })));
    expect(error).toMatchObject({ kind: "timeout", retryable: true });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("treats the caller's abort as a timeout", async () => {
    script({ kind: "hang" });
    const error = await failure(provider().vote({ question: "q", categories: CATEGORIES, images: [] }, AbortSignal.timeout(150)));
    expect(error).toMatchObject({ kind: "timeout", retryable: true });
    expect(error.message).toMatch(/aborted/);
  });

  it("maps a refused connection to a retryable network error", async () => {
    const closed = await startEmulator();
    await closed.close();
    const error = await failure(vote("q", provider({ baseUrl: emulatorBaseUrl(closed.url, vendor) })));
    expect(error).toMatchObject({ kind: "network", retryable: true });
  });

  it("reports unparseable output as malformed", async () => {
    script({ kind: "malformed" });
    expect(await failure(vote())).toMatchObject({ kind: "malformed", retryable: false, raw: expect.any(String) });
  });

  it("sends the images to the model", async () => {
    await provider().vote({ question: "Which shirt?", categories: CATEGORIES, images: [PNG, PNG.replace("image/png", "image/jpeg")] });
    expect(emu.calls()[0]).toMatchObject({ vendor, image_count: 2 });
  });

  it("suggests new categories, dropping existing choices and repeats", async () => {
    emu.addRules({ match: { vendor }, times: 1, respond: { kind: "answer", category: " yes " } });
    const suggestions = await provider().suggest({ question: "Where should we eat tonight?", images: [PNG], existingChoices: ["Yes", "No"] });
    expect(suggestions.length).toBeGreaterThan(0);
    expect(suggestions.length).toBeLessThanOrEqual(6);
    const keys = suggestions.map((s) => s.category.trim().toLowerCase());
    expect(keys).not.toContain("yes");
    expect(keys).not.toContain("no");
    expect(new Set(keys).size).toBe(keys.length);
    for (const s of suggestions) {
      expect(s.confidence).toBeGreaterThanOrEqual(0);
      expect(s.confidence).toBeLessThanOrEqual(1);
    }
    expect(emu.calls()[0]).toMatchObject({ image_count: 1 });
  });
});

describe("createProvider", () => {
  it("serves openai-compatible endpoints with the OpenAI adapter", async () => {
    const provider = createProvider({
      id: "llama",
      vendor: "openai-compatible",
      model: "llama3.1",
      label: "Llama",
      apiKey: "none",
      baseUrl: emulatorBaseUrl(emu.url, "openai-compatible"),
      weight: 1,
      timeoutMs: 5_000,
      simulated: false,
      price: null,
      rpm: null,
      tpm: null,
    });
    const answer = await provider.vote({ question: "Tabs?", categories: ["Tabs", "Spaces"], images: [] });
    expect(["Tabs", "Spaces"]).toContain(answer.category);
    expect(answer.modelVersion).toBe("llama3.1");
    expect(answer.usage).toEqual({ input_tokens: expect.any(Number), output_tokens: expect.any(Number) });
    expect(emu.calls()[0]).toMatchObject({ vendor: "openai", model: "llama3.1" });
  });
});
