import { describe, expect, it } from "vitest";
import { KNOWN_PROVIDERS, type Vendor } from "@sd/contracts";
import { EmulatorLabClient, useEmulator } from "@sd/provider-emulator/testing";
import { ProviderError, createProvider, type JudgeInput, type ModelProvider, type VoteInput } from "./index";
import { emulatedProviderConfig } from "./test-config";

/**
 * Gossip and judge calls, and cancellation, through each vendor's real SDK against the emulator:
 * the prompts the emulator receives, the categories their schemas allow, and answers the emulator's
 * documented gossip and judge simulation gives only when it read those prompts right.
 */
const emu = useEmulator();

const ADAPTERS: readonly { name: string; vendor: Vendor; model: string; structuredOutput?: "json_object" }[] = [
  { name: "openai", vendor: "openai", model: KNOWN_PROVIDERS.gpt5.model },
  { name: "anthropic", vendor: "anthropic", model: KNOWN_PROVIDERS.haiku.model },
  { name: "gemini", vendor: "gemini", model: KNOWN_PROVIDERS.geminipro.model },
  // DeepSeek's API: OpenAI's wire in JSON mode, the schema in the system prompt.
  { name: "deepseek (JSON mode)", vendor: "openai-compatible", model: KNOWN_PROVIDERS.deepseek.model, structuredOutput: "json_object" },
];

const CATEGORIES = ["Yes", "No", "Maybe"];
const QUESTION = "Should I take the umbrella?";
const VOTE_TEXT = "Question: Should I take the umbrella?\n\nAllowed categories:\n- Yes\n- No\n- Maybe";

const GOSSIP: VoteInput = {
  question: QUESTION,
  categories: CATEGORIES,
  images: [],
  round: 2,
  previous: { category: "Yes", reason: 'It is "sunny".' },
  peers: [
    { label: "Google Gemini 2.5 Flash", category: "No", reason: "Too risky." },
    { label: "Anthropic Claude Sonnet 3.5", category: null, reason: null },
    { label: "OpenAI GPT-5", category: "No", reason: null },
  ],
};
const GOSSIP_TEXT = `${VOTE_TEXT}

Round: 2
Your previous answer: "Yes". Reason: "It is \\"sunny\\"."

Other models' answers:
- Google Gemini 2.5 Flash answered "No". Reason: "Too risky."
- Anthropic Claude Sonnet 3.5 answered nothing (its call failed).
- OpenAI GPT-5 answered "No".

Keep your answer or change it, choosing exactly one of the allowed categories.`;

const JUDGE: JudgeInput = {
  question: QUESTION,
  categories: CATEGORIES,
  images: [],
  answers: [
    { label: "OpenAI GPT-4o", category: "Yes", reason: "Clouds.", confidence: 0.9 },
    { label: "Google Gemini 2.5 Flash", category: "No", reason: "Dry forecast.", confidence: 0.6 },
    { label: "Anthropic Claude Sonnet 3.5", category: null, reason: null, confidence: null },
    { label: "OpenAI GPT-5", category: "No", reason: null, confidence: 0.55 },
  ],
};
const JUDGE_TEXT = `${VOTE_TEXT}

Panel answers:
- OpenAI GPT-4o answered "Yes" with confidence 0.9. Reason: "Clouds."
- Google Gemini 2.5 Flash answered "No" with confidence 0.6. Reason: "Dry forecast."
- Anthropic Claude Sonnet 3.5 answered nothing (its call failed).
- OpenAI GPT-5 answered "No" with confidence 0.55.

Choose the final category.`;

describe.each(ADAPTERS)("$name adapter: gossip, judge and cancellation", ({ vendor, model, structuredOutput }) => {
  const provider = (): ModelProvider =>
    createProvider(emulatedProviderConfig(emu.url, { vendor, model, id: "test" }, structuredOutput ? { structuredOutput } : {}));
  const lab = (): EmulatorLabClient => new EmulatorLabClient(emu.url, emu.controlToken);

  it("asks a first-round vote with the plain vote prompt, byte for byte, constrained to the categories", async () => {
    const answer = await provider().vote({ question: QUESTION, categories: CATEGORIES, images: [] });
    expect(CATEGORIES).toContain(answer.category);
    expect(emu.calls()).toEqual([expect.objectContaining({ model, prompt_text: VOTE_TEXT, categories: CATEGORIES })]);
  });

  it("shows a gossip round the previous answers and takes the kept or changed answer", async () => {
    // The emulator switches a model that differs from its peers' majority with this probability.
    await lab().configure({ gossip: { switch_probability: 1 } });
    const changed = await provider().vote(GOSSIP);
    expect(changed).toMatchObject({ category: "No", rationale: "Simulated: switched to No, the answer most other models gave." });
    await lab().configure({ gossip: { switch_probability: 0 } });
    const kept = await provider().vote({ ...GOSSIP, round: 3 });
    expect(kept).toMatchObject({ category: "Yes", rationale: "Simulated: kept Yes although most other models answered No." });

    const [first, second] = emu.calls();
    expect(first).toMatchObject({ prompt_text: GOSSIP_TEXT, categories: CATEGORIES });
    expect(second!.prompt_text).toBe(GOSSIP_TEXT.replace("Round: 2", "Round: 3"));
  });

  it("asks the judge with every panel answer and returns its verdict, reason and confidence", async () => {
    const verdict = await provider().judge(JUDGE);
    expect(verdict).toMatchObject({
      category: "No",
      confidence: 0.56,
      rationale: "Simulated judge: No has the highest summed confidence among the panel answers (1.15 of 2.05).",
      modelVersion: `${model} (simulated)`,
    });
    expect(emu.calls()).toEqual([expect.objectContaining({ prompt_text: JUDGE_TEXT, categories: CATEGORIES })]);
  });

  it("refuses a judge's verdict outside the categories", async () => {
    emu.addRules({ times: 1, respond: { kind: "answer", category: "Purple" } });
    const error = await provider().judge(JUDGE).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: "invalid_answer", retryable: false });
  });

  it("ends the HTTP request as soon as the caller aborts", async () => {
    emu.addRules({ times: 1, respond: { kind: "hang" } });
    const controller = new AbortController();
    const pending = provider()
      .vote({ question: "Cancelled?", categories: CATEGORIES, images: [] }, controller.signal)
      .catch((e: unknown) => e);
    await emu.waitForCall((call) => call.prompt_text.includes("Cancelled?"));
    const abortedAt = Date.now();
    controller.abort();
    const ended = await emu.waitForCallEnd((call) => call.prompt_text.includes("Cancelled?"), 2_000);
    expect(ended.outcome).toBe("dropped");
    expect(ended.ended_at! - abortedAt).toBeLessThan(500);
    const error = await pending;
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: "timeout", message: expect.stringMatching(/aborted by the caller/) });
  });
});
