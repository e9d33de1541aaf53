/**
 * The accuracy lab (a SIMULATION): the emulator's lab models of known accuracy answer labelled
 * questions through the real pipeline; calibration sets <ID>_ACCURACY for WEIGHTING=learned, then
 * each model and each mode is measured and paired against majority voting (Newcombe's interval).
 * Exits 1 when a gated target fails (judge and gossip are measured, not gated).
 *   npm run bench:accuracy                      (LAB_QUESTIONS=1000, LAB_SEED=1, LAB_CONCURRENCY=50)
 *   LAB_QUESTIONS=200 npm run bench:accuracy    (quick; LAB_CALIBRATION_QUESTIONS defaults to LAB_QUESTIONS)
 *   LAB_PANELS=B LAB_MODES=majority_voting,weighted_voting npm run bench:accuracy   (panels A-C; modes as the API names them)
 */
import { rm } from "node:fs/promises";
import { ENSEMBLE_LIMITS } from "@sd/contracts";
import { LAB_DESCRIPTION, startEmulator, type Emulator } from "@sd/provider-emulator";
import { createRedis, deleteDeploymentKeys } from "@sd/queue";
import { positiveInteger } from "./kit";
import { ServiceProcess } from "@sd/testing/processes";
import { startStack, type InProcessStack } from "@sd/testing/stack";
import { BASELINE, printCalibration, printPanel, printSingles, printTargets, MODES, type LabResults, type ModeKey, type PanelRuns, type Target } from "./accuracy/lab-report";
import { CATEGORIES, JUDGE, LAB_MODELS, PANELS, labConfig, labQuestions, labStackEnv, labelOf, type LabModelSpec, type LabQuestion, type Panel } from "./accuracy/lab-setup";
import { runQuestions, type DecisionOutcome, type RunSpec } from "./accuracy/run-questions";

const QUESTIONS = positiveInteger("LAB_QUESTIONS", 1000);
const CALIBRATION_QUESTIONS = positiveInteger("LAB_CALIBRATION_QUESTIONS", QUESTIONS);
const SEED = positiveInteger("LAB_SEED", 1);
const CONCURRENCY = positiveInteger("LAB_CONCURRENCY", 50);
const GOSSIP_ROUNDS = ENSEMBLE_LIMITS.defaultRounds;

/** A comma-separated choice among `allowed` from the environment (all when unset), in `allowed`'s order; exits on a name it does not know. */
function chosen<T extends string>(name: string, allowed: readonly T[]): T[] {
  const raw = process.env[name]?.trim();
  if (!raw) return [...allowed];
  const picked = raw.split(",").map((s) => s.trim()).filter(Boolean);
  const unknown = picked.filter((p) => !(allowed as readonly string[]).includes(p));
  if (unknown.length > 0 || picked.length === 0) {
    process.stderr.write(`${name}: unknown ${unknown.join(", ") || "(empty)"}; choose from ${allowed.join(", ")}\n`);
    process.exit(2);
  }
  return allowed.filter((a) => picked.includes(a));
}

const CHOSEN_PANELS: readonly Panel[] = chosen("LAB_PANELS", PANELS.map((p) => p.name)).map((name) => PANELS.find((p) => p.name === name)!);
const CHOSEN_MODES: readonly ModeKey[] = chosen("LAB_MODES", MODES);
if (!CHOSEN_MODES.includes(BASELINE)) {
  process.stderr.write(`LAB_MODES must include ${BASELINE}: every mode is compared with it on the same questions.\n`);
  process.exit(2);
}
/** The models the chosen runs ask: the chosen panels' members, and the judge when judge mode runs. Only these are calibrated and configured. */
const NEEDED_MODELS: readonly LabModelSpec[] = LAB_MODELS.filter(
  (m) => CHOSEN_PANELS.some((p) => p.members.includes(m.id)) || (CHOSEN_MODES.includes("judge") && m.id === JUDGE),
);

const log = (line: string): void => void process.stderr.write(`${line}\n`);

/**
 * Starts a stack, runs `work` on it, and always stops it and deletes its data dir. The provider
 * workers run in a process of their own, as in a split deployment (the gateway and the aggregator,
 * which holds the embedded store, stay in this one): two processes get a fair share of a busy
 * 2-core machine where one would queue everything behind one event loop.
 */
async function withStack<T>(vars: Record<string, string>, work: (stack: InProcessStack) => Promise<T>): Promise<T> {
  // Its start line is logged at info; the workers log nothing per vote at info.
  const workers = ServiceProcess.start("provider-worker", { ...vars, LOG_LEVEL: "info" });
  let stack: InProcessStack | undefined;
  try {
    await workers.waitForLog((line) => line.msg === "provider workers started", "the provider workers started");
    stack = await startStack({ ...vars, ROLES: "gateway,aggregator" });
    return await work(stack);
  } finally {
    await stack?.close();
    await workers.stop();
    await rm(vars.DATA_DIR!, { recursive: true, force: true });
    await deleteKeys(vars.REDIS_URL!, vars.QUEUE_PREFIX!);
  }
}

/** A run leaves tens of thousands of finished jobs under its own prefix (kept an hour by design): the bench removes them. */
async function deleteKeys(redisUrl: string, prefix: string): Promise<void> {
  const redis = createRedis(redisUrl, "accuracy-lab-cleanup");
  try {
    await deleteDeploymentKeys(redis, prefix);
  } finally {
    redis.disconnect();
  }
}

async function timedRun(stack: InProcessStack, emulator: Emulator, spec: RunSpec, questions: readonly LabQuestion[]): Promise<DecisionOutcome[]> {
  const started = performance.now();
  const outcomes = await runQuestions(stack, emulator, spec, questions, CONCURRENCY);
  const seconds = (performance.now() - started) / 1000;
  log(`  ${spec.tag}: ${outcomes.length} decisions in ${seconds.toFixed(1)} s (${(outcomes.length / seconds).toFixed(0)}/s)`);
  return outcomes;
}

/** Phase 1: every model on separate questions, in one decision per question (its individual answer is what counts). */
async function calibrate(emulator: Emulator, questions: readonly LabQuestion[]): Promise<LabResults["calibration"]> {
  const outcomes = await withStack(labStackEnv(emulator.url, CONCURRENCY, {}, NEEDED_MODELS), (stack) =>
    timedRun(stack, emulator, { tag: "calibration", panel: NEEDED_MODELS.map((m) => m.id), options: { ensemble_mode: "majority_voting", early_quorum: false }, maxCalls: NEEDED_MODELS.length }, questions),
  );
  return NEEDED_MODELS.map((m) => {
    const answered = outcomes.filter((o) => o.status === 200 && o.answers[m.id] != null);
    return { id: m.id, configured: m.accuracy, right: answered.filter((o) => o.answers[m.id] === o.question.correct).length, questions: answered.length };
  });
}

/** A run's request options and the most calls one of its decisions can make. */
function modeSpec(mode: ModeKey, panelSize: number): Pick<RunSpec, "options" | "maxCalls"> {
  switch (mode) {
    case "majority_voting":
      return { options: { ensemble_mode: "majority_voting", early_quorum: false }, maxCalls: panelSize };
    case "weighted_voting":
      return { options: { ensemble_mode: "weighted_voting", early_quorum: false }, maxCalls: panelSize };
    case "judge":
      return { options: { ensemble_mode: "judge", judge_model: JUDGE }, maxCalls: panelSize + 1 };
    case "gossip":
      return { options: { ensemble_mode: "gossip" }, maxCalls: panelSize * GOSSIP_ROUNDS };
    case "early_quorum":
      return { options: { ensemble_mode: "majority_voting", early_quorum: true }, maxCalls: panelSize };
  }
}

/** Phase 2: each model alone, then every chosen mode of every chosen panel, on a stack with learned weights. */
async function evaluate(emulator: Emulator, questions: readonly LabQuestion[], calibration: LabResults["calibration"]) {
  // The config takes an accuracy strictly between 0 and 1.
  const accuracyVars = Object.fromEntries(calibration.map((c) => [`${c.id.toUpperCase()}_ACCURACY`, String(Math.min(0.999, Math.max(0.001, c.right / c.questions)))]));
  return withStack(labStackEnv(emulator.url, CONCURRENCY, { WEIGHTING: "learned", ...accuracyVars }, NEEDED_MODELS), async (stack) => {
    const singles = new Map<string, DecisionOutcome[]>();
    for (const id of [...new Set(CHOSEN_PANELS.flatMap((p) => p.members))]) {
      singles.set(id, await timedRun(stack, emulator, { tag: `single-${id}`, panel: [id], ...modeSpec(BASELINE, 1) }, questions));
    }
    const panels: PanelRuns[] = [];
    for (const panel of CHOSEN_PANELS) {
      const run = (mode: ModeKey) =>
        timedRun(stack, emulator, { tag: `${panel.name}-${mode}`, panel: [...panel.members], ...modeSpec(mode, panel.members.length) }, questions);
      // The baseline first: every other mode is compared with it (the lab's answers do not depend on run order).
      const runs: PanelRuns["runs"] = { [BASELINE]: await run(BASELINE) };
      for (const mode of CHOSEN_MODES) if (mode !== BASELINE) runs[mode] = await run(mode);
      panels.push({ panel, runs });
    }
    return { singles, panels };
  });
}

const describe = (o: DecisionOutcome): string =>
  `run ${o.run}, question ${o.question.labId}: emulator answered ${o.emulator.answered} of ${o.emulator.made} calls, record accounts for ${o.record.calls} (skipped ${o.record.skipped.join(", ") || "none"}, saved ${o.record.callsSaved ?? "n/a"})`;

/** Checks every decision was answered and that the emulator saw exactly the calls each stored record accounts for. */
function pipelineTargets(results: LabResults): Target[] {
  const all = [...results.singles.values(), ...results.panels.flatMap((p) => Object.values(p.runs))].flat();
  const failed = all.filter((o) => o.status !== 200);
  const mismatched = all.filter((o) => o.status === 200 && o.emulator.answered - o.emulator.savedAfterAnswering !== o.record.calls);
  const races = all.reduce((sum, o) => sum + o.emulator.savedAfterAnswering, 0);
  return [
    { name: "Every decision answered", pass: failed.length === 0, detail: `${all.length - failed.length} of ${all.length} answered 200${failed.length ? `; first failure: ${failed[0]!.status}` : ""}`, binding: true },
    {
      name: "The emulator's calls match the stored records",
      pass: mismatched.length === 0,
      detail:
        `${all.length - mismatched.length} of ${all.length} decisions: answered calls = the calls their ensemble record accounts for` +
        `${mismatched.length ? ` (first mismatch: ${describe(mismatched[0]!)})` : ""}; ${races} call(s) the records count as saved had already been answered on the wire (cut before the SDK read the answer)`,
      binding: true,
    },
  ];
}

async function main(): Promise<void> {
  const started = performance.now();
  const emulator = await startEmulator({ recordCalls: true });
  try {
    const calibrationQuestions = labQuestions("c", CALIBRATION_QUESTIONS, SEED + 1);
    const questions = labQuestions("q", QUESTIONS, SEED);
    const lab = emulator.configureLab(labConfig([...calibrationQuestions, ...questions], SEED));
    log(`Accuracy lab: ${QUESTIONS} questions per run, ${CALIBRATION_QUESTIONS} for calibration, seed ${SEED}, concurrency ${CONCURRENCY}`);
    log(`Panels ${CHOSEN_PANELS.map((p) => p.name).join(", ")}; modes ${CHOSEN_MODES.join(", ")}; models ${NEEDED_MODELS.map((m) => m.id).join(", ")}`);
    log("Calibration:");
    const calibration = await calibrate(emulator, calibrationQuestions);
    log("Evaluation:");
    const { singles, panels } = await evaluate(emulator, questions, calibration);
    const results: LabResults = { calibration, singles, panels, switchProbability: lab.gossip.switch_probability, gossipRounds: GOSSIP_ROUNDS, judge: JUDGE };
    const seconds = (performance.now() - started) / 1000;

    console.log("## Accuracy lab (`npm run bench:accuracy`)\n");
    console.log("**This is a simulation.** No real model answered: the provider emulator's accuracy lab played models of configured accuracy, as described below.");
    console.log("Every decision went through the real pipeline (HTTP, BullMQ on Redis, provider workers on the vendor SDKs, the aggregator, the store).\n");
    console.log("```text\n" + LAB_DESCRIPTION + "\n```\n");
    console.log(
      `Run: ${QUESTIONS} labelled questions per panel and mode (the same questions for every run, so modes are compared question by question), ` +
        `panels ${CHOSEN_PANELS.map((p) => p.name).join(", ")}, modes ${CHOSEN_MODES.join(", ")}, ` +
        `${CALIBRATION_QUESTIONS} separate calibration questions, ${CATEGORIES.length} categories shuffled per question, seed ${SEED}, ${CONCURRENCY} decisions at once, ${seconds.toFixed(0)} s in all.`,
    );
    if (CHOSEN_MODES.includes("judge") || CHOSEN_MODES.includes("gossip")) {
      console.log(
        `Judge: ${labelOf(JUDGE)} (lab accuracy ${LAB_MODELS.find((m) => m.id === JUDGE)!.accuracy}; as a judge it follows the lab's rule: the category with the highest summed confidence). ` +
          `Gossip: at most ${GOSSIP_ROUNDS} rounds, switch probability ${lab.gossip.switch_probability} (the lab's default).`,
      );
    }
    console.log(
      "Theory, product's rule: exact, by enumeration, with the product's tie policy (summed confidence, then the shuffled order) and the lab's confidences " +
        "(`@sd/ensemble`'s productRuleAccuracy, productRuleCallsSaved, confidenceJudgeAccuracy, peerGossip). " +
        "Theory, random ties / no confidence: `@sd/ensemble`'s pluralityAccuracy and expectedCallsSaved. " +
        "Calls/decision: calls the emulator answered (cancelled ones not counted), against the calls each stored decision's ensemble record accounts for.\n",
    );
    printCalibration(results);
    printSingles(results);
    const targets = results.panels.flatMap((p) => printPanel(p, results));
    const ok = printTargets([...targets, ...pipelineTargets(results)]);
    if (!ok) process.exitCode = 1;
  } finally {
    await emulator.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
