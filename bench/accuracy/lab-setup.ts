/**
 * What the accuracy lab simulates: the emulated models (accuracy and latency), the panels, the
 * labelled questions, and the environment of a stack whose every provider has an API key and a
 * base URL pointing at the emulator (so no answer comes from the keyless built-in emulator).
 */
import { KNOWN_PROVIDERS, type KnownProviderId } from "@sd/contracts";
import { emulatorBaseUrl, labelledQuestion, type LabConfig } from "@sd/provider-emulator";
import { seededRandom } from "../kit";
import { testEnv } from "@sd/testing/env";

export const CATEGORIES = ["Approve", "Reject", "Defer", "Escalate"] as const;

export interface LabModelSpec {
  id: KnownProviderId;
  /** The probability it answers a labelled question right. */
  accuracy: number;
  /** The delay of each of its answers to a labelled question: sets the order answers arrive in. */
  latencyMs: number;
}

/**
 * Each accuracy on its own emulated model (the lab tells models apart by their vendor model name).
 * Latencies set the order answers arrive in, which early quorum's savings depend on. What matters
 * is which models answer last: on 3 models the third (the first two decide when they agree), on
 * 5 the fourth and the fifth. Those come 350 and 300 ms after the one before, more than the
 * pipeline needs under load to cancel a call once the winner is certain (the lab prints that time).
 */
export const LAB_MODELS: readonly LabModelSpec[] = [
  { id: "openai", accuracy: 0.8, latencyMs: 50 },
  { id: "gemini", accuracy: 0.7, latencyMs: 100 },
  { id: "claude", accuracy: 0.6, latencyMs: 450 },
  { id: "gpt5", accuracy: 0.9, latencyMs: 50 },
  { id: "haiku", accuracy: 0.6, latencyMs: 100 },
  { id: "deepseek", accuracy: 0.6, latencyMs: 450 },
  { id: "grok", accuracy: 0.6, latencyMs: 750 },
  { id: "llama", accuracy: 0.55, latencyMs: 1050 },
  // The judge of judge mode. Its accuracy only shapes its own votes (calibration): as a judge it
  // follows the lab's confidence-summing rule whatever its accuracy.
  { id: "geminipro", accuracy: 0.75, latencyMs: 50 },
];
export const JUDGE: KnownProviderId = "geminipro";

export interface Panel {
  name: string;
  /** Provider ids, in the order their answers arrive (fastest first). */
  members: KnownProviderId[];
}

export const PANELS: readonly Panel[] = [
  { name: "A", members: ["openai", "gemini", "claude"] },
  { name: "B", members: ["gpt5", "haiku", "deepseek"] },
  { name: "C", members: ["openai", "gemini", "claude", "grok", "llama"] },
];

export const specOf = (id: string): LabModelSpec => {
  const spec = LAB_MODELS.find((m) => m.id === id);
  if (!spec) throw new Error(`no lab model ${id}`);
  return spec;
};
const KNOWN_LABELS = new Map<string, string>(Object.entries(KNOWN_PROVIDERS).map(([id, p]) => [id, p.label]));
export const labelOf = (id: string): string => KNOWN_LABELS.get(id) ?? id;
/** The vendor request's model name, by which the lab knows a model. */
const vendorModel = (id: KnownProviderId): string => KNOWN_PROVIDERS[id].model;

/** One labelled question: its lab id, its categories in the order the request lists them, and the correct one. */
export interface LabQuestion {
  index: number;
  labId: string;
  categories: string[];
  correct: string;
}

/** `count` questions (ids `<prefix><i>`): a uniform correct category and a shuffled category order, from `seed`. */
export function labQuestions(prefix: string, count: number, seed: number): LabQuestion[] {
  const { random, pick } = seededRandom(seed);
  return Array.from({ length: count }, (_, index) => {
    const categories: string[] = [...CATEGORIES];
    for (let i = categories.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [categories[i], categories[j]] = [categories[j]!, categories[i]!];
    }
    return { index, labId: `${prefix}${index}`, categories, correct: pick(CATEGORIES) };
  });
}

/**
 * The text a run sends: the run's tag (so the emulator's call log can be told apart per run and
 * question) and the lab marker. The lab reads only the marker, so every run gets the same votes.
 */
export const questionText = (runTag: string, question: LabQuestion): string =>
  labelledQuestion(`Accuracy lab run ${runTag}, question ${question.index}: which way should this go?`, question.labId);
/** Reads back `questionText` from a prompt: the run tag and the lab id. */
export const QUESTION_IN_PROMPT = /Accuracy lab run ([A-Za-z0-9_.-]+), question \d+: which way should this go\? \[lab:([A-Za-z0-9_.-]+)\]/;

/** The lab's configuration: the questions' correct answers and each model's accuracy and latency. */
export function labConfig(questions: readonly LabQuestion[], seed: number): LabConfig {
  return {
    seed,
    questions: Object.fromEntries(questions.map((q) => [q.labId, q.correct])),
    models: Object.fromEntries(LAB_MODELS.map((m) => [vendorModel(m.id), { accuracy: m.accuracy, latency_ms: m.latencyMs }])),
  };
}

/**
 * A stack's environment: the given lab models (`PROVIDERS`), each configured with a key
 * and the emulator's base URL, room for `concurrency` decisions in flight, and the given extra
 * variables (WEIGHTING, <ID>_ACCURACY). Its default panel and judge are among those models, as the
 * gateway requires; every lab request names its panel anyway.
 */
export function labStackEnv(emulatorUrl: string, concurrency: number, extra: Record<string, string>, models: readonly LabModelSpec[]): Record<string, string> {
  const ids = models.map((m) => m.id);
  const providers: Record<string, string> = {};
  for (const { id } of models) {
    const prefix = id.toUpperCase();
    providers[`${prefix}_API_KEY`] = "lab-key";
    providers[`${prefix}_BASE_URL`] = emulatorBaseUrl(emulatorUrl, KNOWN_PROVIDERS[id].vendor);
    // A loaded machine must not turn a slow answer into a failed vote.
    providers[`${prefix}_TIMEOUT_MS`] = "20000";
    // Simulated calls cost nothing; a price keeps the product from warning about an unknown one (Llama).
    providers[`${prefix}_PRICE_INPUT_PER_MTOK`] = "0";
    providers[`${prefix}_PRICE_OUTPUT_PER_MTOK`] = "0";
  }
  return testEnv(emulatorUrl, {
    LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
    PROVIDERS: ids.join(","),
    PANEL: (PANELS.find((p) => p.members.every((id) => ids.includes(id)))?.members ?? ids.slice(0, 3)).join(","),
    JUDGE_PROVIDER: ids.includes(JUDGE) ? JUDGE : ids[0]!,
    ...providers,
    WORKER_CONCURRENCY: String(Math.max(concurrency, 16)),
    AGGREGATOR_CONCURRENCY: String(Math.max(concurrency, 8)),
    RATE_LIMIT_PER_MINUTE: "1000000",
    RATE_LIMIT_MB_PER_MINUTE: "100000",
    DECISION_TIMEOUT_MS: "60000",
    VOTE_DEADLINE_MS: "30000",
    // The product's default: the test setting (2 s) lets a busy machine's job lock lapse, and a
    // second worker then repeats the call (an extra call the lab would count).
    JOB_LOCK_MS: "30000",
    ...extra,
  });
}
