import { createHash } from "node:crypto";
import { z } from "zod";
import { LAB_ID, readPrompt, schemaCategories, type ReadPrompt, type StatedAnswer } from "./prompt-reader";
import { seededRng, type Rng } from "./schema-walker";

/**
 * The confidence of a first-round lab answer: uniform on `right` when the answer is right, on
 * `wrong` when not, rounded to two decimals. The description below states these ranges and the
 * bench hands them to the exact theory (`productRuleAccuracy` of @sd/ensemble), so neither can
 * drift from what the lab does.
 */
export const LAB_CONFIDENCE = { right: [0.6, 0.95], wrong: [0.35, 0.8] } as const satisfies { right: readonly [number, number]; wrong: readonly [number, number] };
const range = ([low, high]: readonly [number, number]): string => `[${low.toFixed(2)}, ${high.toFixed(2)}]`;

/**
 * The provider emulator's accuracy lab: a documented simulation of models of known accuracy, so
 * the ensemble modes can be measured against theory. `LAB_DESCRIPTION` below is the model, in
 * full; `npm run bench:accuracy` prints it with its results.
 */
export const LAB_DESCRIPTION = `\
Accuracy lab of the provider emulator (a SIMULATION: no real model answers)

Labelled questions. POST /_emulator/lab (x-emulator-token header) gives questions a hidden
correct category ({"questions": {"<id>": "<category>"}}) and models an accuracy p
({"models": {"<model name>": {"accuracy": p, "latency_ms": t}}}). A question is labelled when its
text carries the marker [lab:<id>] (letters, digits, _ - and ., at most 100) for a configured id
whose correct category is one of the request's categories. Models are matched by the model name
of the vendor request (gpt-4o, gemini-2.5-flash, ...).

First-round vote on a labelled question, by a configured model: correct with probability p; else
one of the other K-1 categories, uniformly. Confidence is informative: uniform on
${range(LAB_CONFIDENCE.right)} when right, on ${range(LAB_CONFIDENCE.wrong)} when wrong (two decimals). The model's
latency_ms, when set, delays each of its answers to labelled questions (a scripted rule's
latency_ms wins).

Gossip round (the prompt shows "Your previous answer:" and "Other models' answers:"). The peers'
majority is the category more peers answered than any other (failed peers do not count; a tie
means no majority). A model whose previous answer is the majority, or that sees no majority,
keeps its answer; one whose previous answer differs switches to the majority with probability
switch_probability ({"gossip": {"switch_probability": s}}, default 0.5), else keeps it. A model
without a previous answer (its call failed) answers as in the first round. Confidence: as a
first-round vote for the answer it ends with on a labelled question (by its correctness),
uniform on [0.55, 0.95] otherwise.

Judge (the prompt shows "Panel answers:"). Picks the category with the highest summed confidence
over the panel answers listed (failed answers count nothing); ties go to the category listed
first among those answers; with no panel answer, the first allowed category. Its confidence is
the winner's share of the summed confidence (0 with no answer).

Gossip and judge behave so on every question, labelled or not; unlabelled first-round votes (or
those of a model the lab does not configure) are the emulator's usual seeded answers. A scripted
rule that pins a category wins over the lab. Every lab, gossip and judge reason says it is
simulated.

Determinism. Every draw comes from a generator seeded by (seed, question id, model, kind, round):
the same configuration and seed give the same answers on every run, whatever the order of the
calls and whatever else the question text says, so every run of a question (each ensemble mode)
gets the same first-round answers and runs can be compared question by question. A gossip round
the prompt does not number is seeded by what it shows. Unlabelled gossip is seeded by (model,
prompt), as the emulator's other answers are.`;

const AccuracySchema = z.number().min(0, "accuracy is a probability from 0 to 1").max(1, "accuracy is a probability from 0 to 1");

/** POST /_emulator/lab: each part optional; questions and models are merged into the lab's, gossip and seed replaced. */
export const LabConfigSchema = z.strictObject({
  questions: z.record(z.string().regex(LAB_ID, "question ids are letters, digits, _ - and ., at most 100"), z.string().min(1)).optional(),
  models: z.record(z.string().min(1), z.strictObject({ accuracy: AccuracySchema, latency_ms: z.number().nonnegative().optional() })).optional(),
  gossip: z.strictObject({ switch_probability: z.number().min(0).max(1) }).optional(),
  seed: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
});
export type LabConfig = z.infer<typeof LabConfigSchema>;
export type LabModel = NonNullable<LabConfig["models"]>[string];

/** What the lab holds: the number of labelled questions, the models, gossip and seed. */
export interface LabState {
  questions: number;
  models: Record<string, LabModel>;
  gossip: { switch_probability: number };
  seed: number;
}

/** The simulated answer to one call; null leaves it to the emulator's usual answer. */
export interface LabAnswer {
  category: string;
  confidence: number;
  rationale: string;
}

/** What the lab reads from a vendor call. */
export interface LabCall {
  model: string;
  promptText: string;
  schema: unknown;
}

const DEFAULT_SWITCH_PROBABILITY = 0.5;
const round2 = (n: number): number => Math.round(n * 100) / 100;
const between = (low: number, high: number, rng: Rng): number => round2(low + rng() * (high - low));
const percent = (p: number): string => `${Math.round(p * 1000) / 10}%`;

export class Lab {
  #questions = new Map<string, string>();
  #models = new Map<string, LabModel>();
  #switchProbability = DEFAULT_SWITCH_PROBABILITY;
  #seed = 0;

  /** Validates (throws a ZodError) before changing anything. */
  configure(input: unknown): LabState {
    const config = LabConfigSchema.parse(input);
    for (const [id, correct] of Object.entries(config.questions ?? {})) this.#questions.set(id, correct);
    for (const [model, settings] of Object.entries(config.models ?? {})) this.#models.set(model, { ...settings });
    if (config.gossip) this.#switchProbability = config.gossip.switch_probability;
    if (config.seed !== undefined) this.#seed = config.seed;
    return this.state();
  }

  state(): LabState {
    return {
      questions: this.#questions.size,
      models: Object.fromEntries([...this.#models].map(([model, settings]) => [model, { ...settings }])),
      gossip: { switch_probability: this.#switchProbability },
      seed: this.#seed,
    };
  }

  clear(): void {
    this.#questions.clear();
    this.#models.clear();
    this.#switchProbability = DEFAULT_SWITCH_PROBABILITY;
    this.#seed = 0;
  }

  /** The configured delay of this model's answer to a labelled question, or null. */
  latencyMs(call: LabCall): number | null {
    const categories = schemaCategories(call.schema);
    if (categories === null) return null;
    const labelled = this.#labelled(readPrompt(call.promptText), call.model, categories);
    return labelled?.settings.latency_ms ?? null;
  }

  /** The lab's answer (see LAB_DESCRIPTION), or null for a call it leaves to the emulator's usual answer. */
  answer(call: LabCall): LabAnswer | null {
    const categories = schemaCategories(call.schema);
    if (categories === null) return null;
    const prompt = readPrompt(call.promptText);
    const labelled = this.#labelled(prompt, call.model, categories);
    switch (prompt.kind) {
      case "judge":
        return judge(prompt.answers, categories);
      case "vote":
        return labelled ? this.#firstRound(labelled, call.model, categories) : null;
      case "gossip":
        return this.#gossip(prompt, labelled, call, categories);
    }
  }

  #labelled(prompt: ReadPrompt, model: string, categories: readonly string[]): Labelled | null {
    if (prompt.labId === null) return null;
    const correct = this.#questions.get(prompt.labId);
    const settings = this.#models.get(model);
    if (correct === undefined || settings === undefined || !categories.includes(correct)) return null;
    return { id: prompt.labId, correct, settings };
  }

  #rng(labelled: Labelled, model: string, kind: string, round: string): Rng {
    return seededRng(model, `lab\n${this.#seed}\n${labelled.id}\n${kind}\n${round}`);
  }

  #firstRound(labelled: Labelled, model: string, categories: readonly string[]): LabAnswer {
    const rng = this.#rng(labelled, model, "vote", "1");
    const { accuracy } = labelled.settings;
    const others = categories.filter((c) => c !== labelled.correct);
    const right = others.length === 0 || rng() < accuracy;
    const category = right ? labelled.correct : others[Math.floor(rng() * others.length)]!;
    return {
      category,
      confidence: informativeConfidence(right, rng),
      rationale: `Simulated lab answer: ${category}, from a model configured to be right ${percent(accuracy)} of the time.`,
    };
  }

  #gossip(prompt: ReadPrompt, labelled: Labelled | null, call: LabCall, categories: readonly string[]): LabAnswer | null {
    const previous = prompt.previous !== null && categories.includes(prompt.previous) ? prompt.previous : null;
    if (previous === null) return labelled ? this.#firstRound(labelled, call.model, categories) : null;
    // A round the prompt does not number is seeded by what it shows, so the same prompt gets the same answer.
    const rng = labelled
      ? this.#rng(labelled, call.model, "gossip", prompt.round === null ? digest(call.promptText) : String(prompt.round))
      : seededRng(call.model, call.promptText);
    const majority = peersMajority(prompt.answers, categories);
    const switches = majority !== null && majority !== previous && rng() < this.#switchProbability;
    const category = switches ? majority : previous;
    const confidence = labelled ? informativeConfidence(category === labelled.correct, rng) : between(0.55, 0.95, rng);
    let rationale: string;
    if (switches) rationale = `Simulated: switched to ${category}, the answer most other models gave.`;
    else if (majority === null) rationale = `Simulated: kept ${category}, as the other models have no majority.`;
    else if (majority === previous) rationale = `Simulated: kept ${category}, which most other models share.`;
    else rationale = `Simulated: kept ${category} although most other models answered ${majority}.`;
    return { category, confidence, rationale };
  }
}

interface Labelled {
  id: string;
  correct: string;
  settings: LabModel;
}

function informativeConfidence(right: boolean, rng: Rng): number {
  const [low, high] = right ? LAB_CONFIDENCE.right : LAB_CONFIDENCE.wrong;
  return between(low, high, rng);
}

const digest = (text: string): string => createHash("sha256").update(text).digest("hex").slice(0, 16);

/** The category more peers answered than any other, or null (no answers, or a tie). */
function peersMajority(peers: readonly StatedAnswer[], categories: readonly string[]): string | null {
  const counts = new Map<string, number>();
  for (const peer of peers) {
    if (peer.category !== null && categories.includes(peer.category)) counts.set(peer.category, (counts.get(peer.category) ?? 0) + 1);
  }
  const ranked = [...counts].sort((a, b) => b[1] - a[1]);
  if (ranked.length === 0 || (ranked.length > 1 && ranked[1]![1] === ranked[0]![1])) return null;
  return ranked[0]![0];
}

/** The judge: the highest summed confidence, ties to the category listed first among the answers. */
function judge(answers: readonly StatedAnswer[], categories: readonly string[]): LabAnswer {
  // A Map keeps first-appearance order, and the strict > below keeps the first of tied categories.
  const sums = new Map<string, number>();
  for (const answer of answers) {
    if (answer.category === null || !categories.includes(answer.category)) continue;
    sums.set(answer.category, (sums.get(answer.category) ?? 0) + Math.max(0, answer.confidence ?? 0));
  }
  let best: [string, number] | null = null;
  for (const entry of sums) if (best === null || entry[1] > best[1]) best = entry;
  if (best === null) {
    return { category: categories[0]!, confidence: 0, rationale: `Simulated judge: no panel answer to weigh, so the first category, ${categories[0]!}.` };
  }
  const total = [...sums.values()].reduce((sum, n) => sum + n, 0);
  const [category, sum] = best;
  return {
    category,
    confidence: total > 0 ? round2(sum / total) : 0,
    rationale: `Simulated judge: ${category} has the highest summed confidence among the panel answers (${round2(sum)} of ${round2(total)}).`,
  };
}
