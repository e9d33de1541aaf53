import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { providersFromEnv } from "@sd/config";
import { KNOWN_PROVIDER_IDS, type ProviderConfig } from "@sd/contracts";
import { CONTROL_TOKEN_HEADER } from "@sd/provider-emulator";
import { createProvider } from "@sd/providers";
import { createLogger } from "@sd/telemetry";
import { Lifecycle } from "./lifecycle";
import { simulateMissingProviders } from "./simulation";

/** The keyless product: no API keys, so every model is answered by the built-in emulator. */
const lifecycle = new Lifecycle(createLogger("simulation-test", "silent"));
let configs: ProviderConfig[];
let emulatorUrl: string;
/** TCP servers listening on this thread's event loop. */
const serversHere = () => process.getActiveResourcesInfo().filter((kind) => kind === "TCPServerWrap").length;
let serversBefore: number;

beforeAll(async () => {
  serversBefore = serversHere();
  configs = await simulateMissingProviders(providersFromEnv(["openai", "gemini", "claude"], {}), 0, lifecycle);
  emulatorUrl = new URL(configs[0]!.baseUrl!).origin;
});
afterAll(() => lifecycle.shutdown("test finished"));

describe("the keyless product's emulator", () => {
  it("listens on a thread of its own, not on this event loop", () => {
    expect(serversHere()).toBe(serversBefore);
  });

  it("answers every model's vote", async () => {
    expect(configs.every((c) => c.simulated && c.baseUrl !== null)).toBe(true);
    for (const config of configs) {
      const answer = await createProvider(config).vote({ question: "Tea or coffee?", categories: ["Tea", "Coffee"], images: [] });
      expect(["Tea", "Coffee"]).toContain(answer.category);
    }
  });

  it("lets no other local process script it or read the questions it was asked", async () => {
    await createProvider(configs[0]!).vote({ question: "a private question", categories: ["Yes", "No"], images: [] });
    const attempts = [
      fetch(`${emulatorUrl}/_emulator/calls`),
      fetch(`${emulatorUrl}/_emulator/rules`),
      fetch(`${emulatorUrl}/_emulator/health`),
      fetch(`${emulatorUrl}/_emulator/reset`, { method: "POST" }),
      fetch(`${emulatorUrl}/_emulator/rules`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ respond: { kind: "error", status: 500 } }),
      }),
      fetch(`${emulatorUrl}/_emulator/calls`, { headers: { [CONTROL_TOKEN_HEADER]: "a guess" } }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(401);
      expect(await res.text()).not.toContain("a private question");
    }
    // The refused rule did not take: the models still answer.
    const answer = await createProvider(configs[1]!).vote({ question: "Still there?", categories: ["Yes", "No"], images: [] });
    expect(["Yes", "No"]).toContain(answer.category);
  });
});

describe("the keyless product with every known model", () => {
  const everyModel = new Lifecycle(createLogger("simulation-test-all", "silent"));
  let all: ProviderConfig[];
  beforeAll(async () => {
    all = await simulateMissingProviders(providersFromEnv(KNOWN_PROVIDER_IDS, {}), 0, everyModel);
  });
  afterAll(() => everyModel.shutdown("test finished"));

  it("simulates each model through the wire API its vendor speaks, with its own SDK", async () => {
    const origin = new URL(all[0]!.baseUrl!).origin;
    for (const config of all) {
      // OpenAI's SDK (also for DeepSeek, Grok and Llama) wants the /v1 prefix; the others the bare origin.
      const viaOpenAI = config.vendor === "openai" || config.vendor === "openai-compatible";
      expect(config.baseUrl, config.id).toBe(viaOpenAI ? `${origin}/v1` : origin);
      const answer = await createProvider(config).vote({ question: "Tea or coffee?", categories: ["Tea", "Coffee"], images: [] });
      expect(["Tea", "Coffee"], config.id).toContain(answer.category);
      expect(answer.modelVersion).toBe(`${config.model} (simulated)`);
    }
  });

  it("simulates gossip rounds and the judge too, saying so", async () => {
    const [gpt5] = all.filter((c) => c.id === "gpt5");
    const judge = createProvider(gpt5!);
    const verdict = await judge.judge({
      question: "Tea or coffee?",
      categories: ["Tea", "Coffee"],
      images: [],
      answers: [
        { label: "OpenAI GPT-4o", category: "Tea", reason: "Calmer.", confidence: 0.6 },
        { label: "DeepSeek V3", category: "Coffee", reason: "Stronger.", confidence: 0.9 },
      ],
    });
    expect(verdict).toMatchObject({ category: "Coffee", rationale: expect.stringMatching(/^Simulated judge: /) });
    const round = await createProvider(all.find((c) => c.id === "grok")!).vote({
      question: "Tea or coffee?",
      categories: ["Tea", "Coffee"],
      images: [],
      round: 2,
      previous: { category: "Tea", reason: null },
      peers: [{ label: "OpenAI GPT-4o", category: "Tea", reason: null }],
    });
    expect(round).toMatchObject({ category: "Tea", rationale: "Simulated: kept Tea, which most other models share." });
  });
});
