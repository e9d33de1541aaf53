/**
 * Runs labelled questions through the real pipeline (HTTP to the gateway, BullMQ, provider
 * workers on the vendor SDKs, the aggregator, the store) and collects, per decision, what the
 * accuracy lab reports: the answer and its latency, the stored decision's ensemble record, and
 * the model calls the emulator saw for it.
 */
import { KNOWN_PROVIDERS, type DecisionResponse, type EnsembleRecord, type KnownProviderId } from "@sd/contracts";
import type { Emulator, EmulatorCall } from "@sd/provider-emulator";
import type { InProcessStack } from "@sd/testing/stack";
import { closedLoop } from "../kit";
import { QUESTION_IN_PROMPT, questionText, type LabQuestion } from "./lab-setup";

const PUBLIC = "/api/ensembled-llm-categorical-decision-public";
/** The emulator keeps its last 10,000 calls: a batch must make fewer, so every one is still logged when it is read. */
const CALL_LOG_ROOM = 8000;

export interface RunSpec {
  /** Unique per run: it is written into every question of the run, to find its calls in the emulator's log. */
  tag: string;
  panel: KnownProviderId[];
  /** The ensemble options of every request of the run. */
  options: { ensemble_mode: string; early_quorum?: boolean; judge_model?: string };
  /** The most model calls one decision can make (a batch is sized by it). */
  maxCalls: number;
}

export interface DecisionOutcome {
  /** The run's tag. */
  run: string;
  question: LabQuestion;
  status: number;
  decision: string | null;
  right: boolean;
  latencyMs: number;
  /** Each panel model's counted answer (individual_responses). */
  answers: Record<string, string | null>;
  record: {
    rounds: number;
    /** Calls the record accounts for: every kept answer, the judge's, and skipped votes whose call had answered. */
    calls: number;
    skipped: string[];
    callsSaved: number | null;
    /** The vote weights the decision used (weighted voting), else empty. */
    weights: Record<string, number>;
    /** Judge mode: the judge failed and the vote decided. */
    judgeFallback: boolean;
    /** The round-1 answers the decision kept, in panel order. */
    roundOne: { provider: string; category: string | null; confidence: number | null }[];
  };
  emulator: {
    /** Calls the emulator received for this decision. */
    made: number;
    answered: number;
    dropped: number;
    /** Early quorum: from the last answered round-1 call to the first call cut on the wire, ms; null when none was cut. */
    cancelAfterMs: number | null;
    /**
     * Early quorum: calls the record counts as saved (cancelled) although the emulator had already
     * sent their answer; the SDK was aborted before it read it, so neither side can see the other's view.
     */
    savedAfterAnswering: number;
  };
}

const providerByModel = new Map<string, string>(Object.entries(KNOWN_PROVIDERS).map(([id, p]) => [p.model, id]));

/** What the record says about the calls the decision made. */
function recordCalls(ensemble: EnsembleRecord): DecisionOutcome["record"] {
  const kept = ensemble.rounds.reduce((sum, round) => sum + round.length, 0);
  const saved = ensemble.early_quorum?.calls_saved ?? null;
  const skipped = ensemble.early_quorum?.skipped ?? [];
  // A skipped vote whose call had already answered is in no round, yet was a call.
  const answeredAnyway = skipped.length - (saved ?? 0);
  return {
    rounds: ensemble.rounds.length,
    calls: kept + (ensemble.judge ? 1 : 0) + answeredAnyway,
    skipped,
    callsSaved: saved,
    weights: ensemble.weights,
    judgeFallback: ensemble.judge?.fallback ?? false,
    roundOne: (ensemble.rounds[0] ?? []).map(({ provider, category, confidence }) => ({ provider, category, confidence })),
  };
}

/** The run's calls in the emulator's log, by lab id, once every one of them has ended. */
async function callsOf(emulator: Emulator, tag: string, labIds: ReadonlySet<string>): Promise<Map<string, EmulatorCall[]>> {
  const mine = (call: EmulatorCall): boolean => {
    const found = QUESTION_IN_PROMPT.exec(call.prompt_text);
    return found !== null && found[1] === tag && labIds.has(found[2]!);
  };
  // A cancelled call ends when its connection closes, which may be just after its decision was answered.
  for (const call of emulator.calls().filter((c) => c.outcome === "pending" && mine(c))) {
    await emulator.waitForCallEnd((c) => c.at === call.at && c.model === call.model && c.prompt_text === call.prompt_text, 30_000);
  }
  const byId = new Map<string, EmulatorCall[]>();
  for (const call of emulator.calls().filter(mine)) {
    const id = QUESTION_IN_PROMPT.exec(call.prompt_text)![2]!;
    byId.set(id, [...(byId.get(id) ?? []), call]);
  }
  return byId;
}

const isRoundOne = (call: EmulatorCall): boolean => !call.prompt_text.includes("Panel answers:") && !call.prompt_text.includes("Your previous answer:");

/** Asks every question of the run, in batches the emulator's call log can hold, `concurrency` at a time. */
export async function runQuestions(stack: InProcessStack, emulator: Emulator, spec: RunSpec, questions: readonly LabQuestion[], concurrency: number): Promise<DecisionOutcome[]> {
  const batchSize = Math.max(concurrency, Math.floor(CALL_LOG_ROOM / spec.maxCalls));
  const outcomes: DecisionOutcome[] = [];
  for (let start = 0; start < questions.length; start += batchSize) {
    const batch = questions.slice(start, start + batchSize);
    const answered = new Map<string, { status: number; body: DecisionResponse; latencyMs: number }>();
    await closedLoop(batch.length, concurrency, async (i) => {
      const question = batch[i]!;
      const t0 = performance.now();
      const response = await fetch(`${stack.url}${PUBLIC}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ question: questionText(spec.tag, question), categories: question.categories, models: spec.panel, ...spec.options }),
      });
      const body = (await response.json()) as DecisionResponse;
      answered.set(question.labId, { status: response.status, body, latencyMs: performance.now() - t0 });
    });
    const calls = await callsOf(emulator, spec.tag, new Set(batch.map((q) => q.labId)));
    for (const question of batch) {
      const { status, body, latencyMs } = answered.get(question.labId)!;
      const stored = status === 200 ? await stack.store.decisions.findById(body.decision_id) : null;
      if (status === 200 && !stored?.ensemble) throw new Error(`run ${spec.tag}: decision ${body.decision_id} was answered but has no stored ensemble record`);
      const mine = calls.get(question.labId) ?? [];
      const decision = status === 200 ? body.final_decision : null;
      const record = stored?.ensemble ? recordCalls(stored.ensemble) : { rounds: 0, calls: 0, skipped: [], callsSaved: null, weights: {}, judgeFallback: false, roundOne: [] };
      const skipped = (call: EmulatorCall): boolean => record.skipped.includes(providerByModel.get(call.model) ?? call.model);
      const answeredFirst = mine.filter((c) => c.outcome === "answered" && isRoundOne(c));
      // The deciding answer: the last counted one (a skipped call may have answered after it).
      const decidedAt = Math.max(...answeredFirst.filter((c) => !skipped(c)).map((c) => c.ended_at!));
      const firstCut = Math.min(...mine.filter((c) => c.outcome === "dropped").map((c) => c.ended_at!));
      outcomes.push({
        run: spec.tag,
        question,
        status,
        decision,
        right: decision === question.correct,
        latencyMs,
        answers: status === 200 ? body.individual_responses : {},
        record,
        emulator: {
          made: mine.length,
          answered: mine.filter((c) => c.outcome === "answered").length,
          dropped: mine.filter((c) => c.outcome === "dropped").length,
          cancelAfterMs: Number.isFinite(firstCut) && Number.isFinite(decidedAt) ? firstCut - decidedAt : null,
          savedAfterAnswering: Math.max(0, answeredFirst.filter(skipped).length - (record.skipped.length - (record.callsSaved ?? 0))),
        },
      });
    }
  }
  return outcomes;
}
