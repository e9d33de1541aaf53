import { describe, expect, it } from "vitest";
import { CONTROL_TOKEN_HEADER, startEmulator } from "./index";
import { EmulatorLabClient, labelledQuestion, useEmulator } from "./testing";

const emu = useEmulator();
const lab = (): EmulatorLabClient => new EmulatorLabClient(emu.url, emu.controlToken);

const CATEGORIES = ["North", "East", "South", "West"];
const schema = (categories: readonly string[]) => ({
  type: "object",
  properties: { category: { type: "string", enum: categories }, rationale: { type: "string" }, confidence: { type: "number" } },
  required: ["category", "rationale", "confidence"],
  additionalProperties: false,
});

interface Answer {
  category: string;
  rationale: string;
  confidence: number;
}

/** One OpenAI-wire call with a vote schema over `categories`, as the product's adapters send it. */
async function ask(model: string, text: string, categories: readonly string[] = CATEGORIES): Promise<Answer> {
  const res = await fetch(`${emu.url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      model,
      messages: [{ role: "user", content: [{ type: "text", text }] }],
      response_format: { type: "json_schema", json_schema: { name: "record_vote", strict: true, schema: schema(categories) } },
    }),
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { choices: { message: { content: string } }[] };
  return JSON.parse(body.choices[0]!.message.content) as Answer;
}

/** The first-round prompt of the product (libs/providers voteText). */
const voteText = (question: string, categories: readonly string[] = CATEGORIES): string =>
  `Question: ${question}\n\nAllowed categories:\n${categories.map((c) => `- ${c}`).join("\n")}`;

/** A gossip round's prompt in the documented format (libs/providers gossipText). */
const gossipText = (question: string, previous: string | null, peers: readonly (string | null)[], round?: number): string =>
  [
    voteText(question),
    "",
    ...(round === undefined ? [] : [`Round: ${round}`]),
    previous === null ? "Your previous answer: none (your call failed)." : `Your previous answer: ${JSON.stringify(previous)}. Reason: "It seemed best."`,
    "",
    "Other models' answers:",
    ...peers.map((p, i) => (p === null ? `- Model ${i} answered nothing (its call failed).` : `- Model ${i} answered ${JSON.stringify(p)}. Reason: "Because."`)),
    "",
    "Keep your answer or change it, choosing exactly one of the allowed categories.",
  ].join("\n");

/** A judge's prompt in the documented format (libs/providers judgeText). */
const judgeText = (question: string, answers: readonly [string | null, number | null][]): string =>
  [
    voteText(question),
    "",
    "Panel answers:",
    ...answers.map(([category, confidence], i) =>
      category === null ? `- Model ${i} answered nothing (its call failed).` : `- Model ${i} answered ${JSON.stringify(category)} with confidence ${confidence}. Reason: "Why not."`,
    ),
    "",
    "Choose the final category.",
  ].join("\n");

/** Runs `call` for 0..n-1, `width` at a time. */
async function inBatches<T>(n: number, width: number, call: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let start = 0; start < n; start += width) {
    out.push(...(await Promise.all(Array.from({ length: Math.min(width, n - start) }, (_, k) => call(start + k)))));
  }
  return out;
}

const mean = (values: readonly number[]): number => values.reduce((s, v) => s + v, 0) / values.length;

describe("labelled questions", () => {
  it("are answered right as often as the model's accuracy, wrong ones spread evenly, with informative confidence", async () => {
    const n = 2_000;
    const questions = Object.fromEntries(Array.from({ length: n }, (_, i) => [`q${i}`, CATEGORIES[i % 4]!]));
    await lab().configure({ questions, models: { "gpt-4o": { accuracy: 0.7 } }, seed: 42 });
    const answers = await inBatches(n, 100, (i) => ask("gpt-4o", voteText(labelledQuestion(`Which way, case ${i}?`, `q${i}`))));

    const right = answers.filter((a, i) => a.category === CATEGORIES[i % 4]);
    const wrong = answers.filter((a, i) => a.category !== CATEGORIES[i % 4]);
    // Standard error sqrt(0.7 * 0.3 / 2000) = 0.010: four of them.
    expect(right.length / n).toBeGreaterThan(0.66);
    expect(right.length / n).toBeLessThan(0.74);
    // Wrong answers: each of the three other categories about a third of them.
    const wrongOffsets = answers.flatMap((a, i) => (a.category === CATEGORIES[i % 4] ? [] : [(CATEGORIES.indexOf(a.category) - (i % 4) + 4) % 4]));
    for (const offset of [1, 2, 3]) {
      const share = wrongOffsets.filter((o) => o === offset).length / wrongOffsets.length;
      expect(share, `wrong answers ${offset} categories on`).toBeGreaterThan(0.27);
      expect(share).toBeLessThan(0.4);
    }
    // Informative confidence: higher when right, within the documented ranges.
    expect(mean(right.map((a) => a.confidence))).toBeGreaterThan(mean(wrong.map((a) => a.confidence)) + 0.15);
    for (const a of right) expect(a.confidence >= 0.6 && a.confidence <= 0.95).toBe(true);
    for (const a of wrong) expect(a.confidence >= 0.35 && a.confidence <= 0.8).toBe(true);
    // Every lab answer says it is simulated.
    expect(answers.every((a) => a.rationale.startsWith("Simulated lab answer: ") && a.rationale.includes(a.category))).toBe(true);
  });

  it("give each model its own accuracy", async () => {
    const n = 100;
    const questions = Object.fromEntries(Array.from({ length: n }, (_, i) => [`m${i}`, "South"]));
    await lab().configure({ questions, models: { always: { accuracy: 1 }, never: { accuracy: 0 } } });
    const text = (i: number): string => voteText(labelledQuestion(`Where, case ${i}?`, `m${i}`));
    const always = await inBatches(n, 100, (i) => ask("always", text(i)));
    const never = await inBatches(n, 100, (i) => ask("never", text(i)));
    expect(always.every((a) => a.category === "South")).toBe(true);
    expect(never.some((a) => a.category === "South")).toBe(false);
  });

  it("are reproducible: the same seed gives the same answers, another seed others", async () => {
    const n = 60;
    const config = { questions: Object.fromEntries(Array.from({ length: n }, (_, i) => [`d${i}`, "East"])), models: { "gpt-4o": { accuracy: 0.5 } } };
    const run = async (): Promise<Answer[]> => inBatches(n, 30, (i) => ask("gpt-4o", voteText(labelledQuestion(`Repeat ${i}?`, `d${i}`))));
    await lab().configure({ ...config, seed: 7 });
    const first = await run();
    await lab().reset();
    await lab().configure({ ...config, seed: 7 });
    expect(await run()).toEqual(first);
    await lab().configure({ seed: 8 });
    const other = await run();
    expect(other.filter((a, i) => a.category !== first[i]!.category).length).toBeGreaterThan(5);
  });

  it("give a question the same answers whatever the order of the calls and the rest of its text, so runs compare question by question", async () => {
    const n = 40;
    const models = ["gpt-4o", "gemini-2.5-flash"];
    await lab().configure({
      questions: Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, CATEGORIES[i % 4]!])),
      models: Object.fromEntries(models.map((m) => [m, { accuracy: 0.5 }])),
      seed: 3,
    });
    const calls = Array.from({ length: n }, (_, i) => models.map((model) => ({ i, model }))).flat();
    const run = async (tag: string, order: readonly { i: number; model: string }[]): Promise<Map<string, Answer>> => {
      const answers = new Map<string, Answer>();
      // One call at a time, in the given order: any state carried from call to call would show.
      for (const { i, model } of order) answers.set(`${i} ${model}`, await ask(model, voteText(labelledQuestion(`Run ${tag}: which way, case ${i}?`, `p${i}`))));
      return answers;
    };
    const forward = await run("majority", calls);
    // Another run: other question text, the calls reversed and the models interleaved otherwise, unlabelled calls in between.
    await ask("gpt-4o", voteText("An unlabelled question first?"));
    const reversed = await run("weighted", [...calls].reverse());
    expect(new Set([...forward.values()].map((a) => a.category)).size).toBeGreaterThan(1);
    for (const [key, answer] of forward) expect(reversed.get(key), key).toEqual(answer);
  });

  it("delay a configured model's answers by its latency_ms", async () => {
    await lab().configure({ questions: { slow: "West" }, models: { "gpt-4o": { accuracy: 0.9, latency_ms: 200 } } });
    let started = Date.now();
    await ask("gpt-4o", voteText(labelledQuestion("Slow?", "slow")));
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    started = Date.now();
    await ask("gpt-4o", voteText("An unlabelled question?"));
    expect(Date.now() - started).toBeLessThan(150);
  });
});

describe("questions the lab does not label", () => {
  it("are answered exactly as without the lab, and so are a labelled question's unconfigured models and unknown ids", async () => {
    const texts = [voteText("Plain question?"), voteText(labelledQuestion("Unknown id?", "nobody")), voteText(labelledQuestion("Other model?", "known"))];
    const before = [await ask("gpt-4o", texts[0]!), await ask("gpt-4o", texts[1]!), await ask("claude-haiku-4-5", texts[2]!)];
    await lab().configure({ questions: { known: "North" }, models: { "gpt-4o": { accuracy: 1 } }, gossip: { switch_probability: 1 }, seed: 3 });
    const after = [await ask("gpt-4o", texts[0]!), await ask("gpt-4o", texts[1]!), await ask("claude-haiku-4-5", texts[2]!)];
    expect(after).toEqual(before);
    // The usual answers: a reason naming the category, no lab wording.
    for (const a of after) expect(a.rationale).not.toMatch(/Simulated/);
    // The configured model does answer the labelled question from the lab.
    expect((await ask("gpt-4o", texts[2]!)).category).toBe("North");
  });

  it("keep a scripted rule's category over the lab's", async () => {
    await lab().configure({ questions: { pinned: "North" }, models: { "gpt-4o": { accuracy: 1 } } });
    emu.addRules({ times: 1, respond: { kind: "answer", category: "West" } });
    expect((await ask("gpt-4o", voteText(labelledQuestion("Pinned?", "pinned")))).category).toBe("West");
    expect((await ask("gpt-4o", voteText(labelledQuestion("Pinned?", "pinned")))).category).toBe("North");
  });
});

describe("gossip rounds", () => {
  it("switch a model that differs from its peers' majority with the configured probability", async () => {
    await lab().configure({ gossip: { switch_probability: 1 } });
    expect((await ask("gpt-4o", gossipText("Go?", "North", ["East", "East"]))).category).toBe("East");
    await lab().configure({ gossip: { switch_probability: 0 } });
    const kept = await ask("gpt-4o", gossipText("Go?", "North", ["East", "East"]));
    expect(kept.category).toBe("North");
    expect(kept.rationale).toBe("Simulated: kept North although most other models answered East.");

    await lab().configure({ gossip: { switch_probability: 0.3 } });
    const n = 400;
    const rounds = await inBatches(n, 100, (i) => ask("gpt-4o", gossipText(`Go, case ${i}?`, "North", ["East", "East", "South"], 2)));
    const switched = rounds.filter((a) => a.category === "East");
    expect(switched.length + rounds.filter((a) => a.category === "North").length).toBe(n);
    expect(switched.length / n).toBeGreaterThan(0.24);
    expect(switched.length / n).toBeLessThan(0.36);
    expect(switched.every((a) => a.rationale === "Simulated: switched to East, the answer most other models gave.")).toBe(true);
  });

  it("keep the answer of a model that agrees with the majority, or sees none", async () => {
    await lab().configure({ gossip: { switch_probability: 1 } });
    expect(await ask("gpt-4o", gossipText("Stay?", "North", ["North", "North", "East"]))).toMatchObject({ category: "North", rationale: expect.stringMatching(/^Simulated: kept North, which most/) });
    // A tie among peers, and failed peers, make no majority.
    expect(await ask("gpt-4o", gossipText("Tie?", "North", ["East", "South"]))).toMatchObject({ category: "North", rationale: expect.stringMatching(/no majority/) });
    expect((await ask("gpt-4o", gossipText("Failed?", "North", [null, null, "East"]))).category).toBe("East");
    expect((await ask("gpt-4o", gossipText("Nobody?", "North", [null, null]))).category).toBe("North");
  });

  it("answer a labelled question as the first round did when the model has no previous answer, with confidence by correctness", async () => {
    await lab().configure({ questions: { g1: "South" }, models: { "gpt-4o": { accuracy: 1 } }, gossip: { switch_probability: 1 } });
    const question = labelledQuestion("Where now?", "g1");
    const firstRound = await ask("gpt-4o", voteText(question));
    const afterFailure = await ask("gpt-4o", gossipText(question, null, ["East", "East"], 2));
    expect(afterFailure).toEqual(firstRound);
    // Switching to a wrong majority lowers the confidence range to the wrong one.
    const switched = await ask("gpt-4o", gossipText(question, "South", ["East", "East"], 2));
    expect(switched.category).toBe("East");
    expect(switched.confidence).toBeLessThanOrEqual(0.8);
    // The same round of the same question is reproducible.
    expect(await ask("gpt-4o", gossipText(question, "South", ["East", "East"], 2))).toEqual(switched);
  });
});

describe("the judge", () => {
  it("picks the category with the highest summed confidence, ties to the first listed, failed answers ignored", async () => {
    const verdict = await ask("gpt-5", judgeText("Which?", [["North", 0.9], ["East", 0.5], [null, null], ["East", 0.5]]));
    expect(verdict).toEqual({
      category: "East",
      confidence: 0.53,
      rationale: "Simulated judge: East has the highest summed confidence among the panel answers (1 of 1.9).",
    });
    expect((await ask("gpt-5", judgeText("Tie?", [["South", 0.5], ["West", 0.5]]))).category).toBe("South");
    expect((await ask("gpt-5", judgeText("Tie?", [["West", 0.5], ["South", 0.5]]))).category).toBe("West");
    expect(await ask("gpt-5", judgeText("Nothing?", [[null, null]]))).toMatchObject({ category: "North", confidence: 0 });
  });
});

describe("the lab's control route", () => {
  it("answers the lab's state and refuses an invalid configuration without changing anything", async () => {
    const state = await lab().configure({ questions: { a: "North", b: "East" }, models: { "gpt-4o": { accuracy: 0.8, latency_ms: 5 } }, seed: 9 });
    expect(state).toEqual({ questions: 2, models: { "gpt-4o": { accuracy: 0.8, latency_ms: 5 } }, gossip: { switch_probability: 0.5 }, seed: 9 });
    await expect(lab().configure({ questions: { c: "West" }, models: { "gpt-4o": { accuracy: 1.5 } } })).rejects.toThrow(/400.*accuracy/);
    await expect(lab().configure({ questions: { "bad id!": "West" } })).rejects.toThrow(/400.*question ids/);
    expect(await lab().state()).toEqual(state);
    await lab().reset();
    expect(await lab().state()).toEqual({ questions: 0, models: {}, gossip: { switch_probability: 0.5 }, seed: 0 });
  });

  it("requires the control token", async () => {
    await lab().configure({ questions: { secret: "North" }, models: { "gpt-4o": { accuracy: 1 } } });
    const wrongTokens: Record<string, string>[] = [{}, { [CONTROL_TOKEN_HEADER]: "a guess" }];
    for (const headers of wrongTokens) {
      const post = await fetch(`${emu.url}/_emulator/lab`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify({ models: { "gpt-4o": { accuracy: 0 } } }),
      });
      expect(post.status).toBe(401);
      const get = await fetch(`${emu.url}/_emulator/lab`, { headers });
      expect(get.status).toBe(401);
      expect(await get.text()).not.toContain("gpt-4o");
    }
    expect((await lab().state()).models).toEqual({ "gpt-4o": { accuracy: 1 } });
    await expect(new EmulatorLabClient(emu.url, "wrong").configure({ seed: 1 })).rejects.toThrow(/401/);
  });

  it("is separate per emulator", async () => {
    const other = await startEmulator();
    try {
      await new EmulatorLabClient(other.url, other.controlToken).configure({ seed: 5 });
      expect((await lab().state()).seed).toBe(0);
      expect(other.labState().seed).toBe(5);
    } finally {
      await other.close();
    }
  });
});

describe("JSON mode (OpenAI-compatible servers without json_schema)", () => {
  it("answers the schema the system prompt states", async () => {
    const system = `Pick one.\n\nReply with one JSON object and nothing else, following this JSON Schema:\n${JSON.stringify(schema(["Tea", "Coffee"]))}`;
    const res = await fetch(`${emu.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        model: "deepseek-chat",
        messages: [
          { role: "system", content: system },
          { role: "user", content: [{ type: "text", text: "Tea or coffee?" }] },
        ],
        response_format: { type: "json_object" },
      }),
    });
    const body = (await res.json()) as { choices: { message: { content: string } }[] };
    const answer = JSON.parse(body.choices[0]!.message.content) as Answer;
    expect(["Tea", "Coffee"]).toContain(answer.category);
    expect(answer.rationale).toContain(answer.category);
    expect(emu.calls()[0]).toMatchObject({ vendor: "openai", model: "deepseek-chat", categories: ["Tea", "Coffee"] });
  });
});
