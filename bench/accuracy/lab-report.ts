/**
 * The accuracy lab's figures and targets, from the decisions it ran: markdown tables (for the
 * README and the closing note) and one PASS/FAIL line per target.
 */
import {
  confidenceJudgeAccuracy,
  earlyQuorum,
  expectedCallsSaved,
  logOddsWeight,
  peerGossip,
  pluralityAccuracy,
  productRuleAccuracy,
  productRuleCallsSaved,
  weightedPluralityAccuracy,
} from "@sd/ensemble";
import { LAB_CONFIDENCE } from "@sd/provider-emulator";
import { percentiles, printTable } from "../kit";
import { CATEGORIES, labelOf, specOf, type Panel } from "./lab-setup";
import type { DecisionOutcome } from "./run-questions";
import { contains, meanInterval, pairedDifference, wilson, type Interval, type PairedDifference } from "./stats";

/**
 * The lab's runs per panel: the product's ensemble modes, and majority voting with early quorum.
 * Every comparison is paired with `majority_voting` on the same questions, so it always runs.
 */
export const MODES = ["majority_voting", "weighted_voting", "judge", "gossip", "early_quorum"] as const;
export type ModeKey = (typeof MODES)[number];
export const BASELINE = "majority_voting" satisfies ModeKey;

export interface PanelRuns {
  panel: Panel;
  /** The decisions of each mode the lab ran (LAB_MODES), in question order; always the baseline. */
  runs: { [BASELINE]: DecisionOutcome[] } & Partial<Record<ModeKey, DecisionOutcome[]>>;
}

export interface LabResults {
  /** Per model: its configured accuracy, and how many calibration questions it answered, and answered right. */
  calibration: { id: string; configured: number; right: number; questions: number }[];
  singles: Map<string, DecisionOutcome[]>;
  panels: PanelRuns[];
  switchProbability: number;
  gossipRounds: number;
  judge: string;
}

/** A target's verdict; `binding` ones make the bench exit non-zero when they fail. */
export interface Target {
  name: string;
  pass: boolean;
  detail: string;
  binding: boolean;
}

const K = CATEGORIES.length;
const pct = (x: number, digits = 1): string => (Number.isFinite(x) ? `${(x * 100).toFixed(digits)}%` : "n/a");
const range = (i: Interval): string => `${pct(i.value)} [${pct(i.low)}, ${pct(i.high)}]`;
const signed = (x: number, digits = 1): string => `${x >= 0 ? "+" : ""}${pct(x, digits)}`;
const signedPct = (i: Interval): string => `${signed(i.value)} [${signed(i.low)}, ${signed(i.high)}]`;
const mean = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;
const accuracyOf = (outcomes: readonly DecisionOutcome[]): Interval => wilson(outcomes.filter((o) => o.right).length, outcomes.length);
const accuraciesOf = (panel: Panel): number[] => panel.members.map((id) => specOf(id).accuracy);

/** a − b question by question (both runs asked the same questions, in the same order). */
function paired(a: readonly DecisionOutcome[], b: readonly DecisionOutcome[]): PairedDifference {
  a.forEach((o, i) => {
    if (o.question.labId !== b[i]?.question.labId) throw new Error(`runs ${o.run} and ${b[i]?.run} did not ask the same questions in the same order`);
  });
  return pairedDifference(
    a.map((o) => o.right),
    b.map((o) => o.right),
  );
}

/** The weights the weighted run's decisions used (the product's learned weights), in panel order; throws if they varied. */
function learnedWeights(panel: Panel, outcomes: readonly DecisionOutcome[]): number[] {
  const first = outcomes.find((o) => o.status === 200)?.record.weights ?? {};
  for (const o of outcomes) {
    if (o.status === 200 && JSON.stringify(o.record.weights) !== JSON.stringify(first)) throw new Error(`panel ${panel.name}: weighted decisions used different weights`);
  }
  return panel.members.map((id) => first[id] ?? Number.NaN);
}

/**
 * What theory says about each mode of a panel under the lab's model. `weights`: the weighted run's
 * learned weights (null when it did not run: the exact log-odds weights stand in).
 */
function theoryOf(panel: Panel, results: LabResults, weights: readonly number[] | null) {
  const p = accuraciesOf(panel);
  const n = p.length;
  const order = p.map((_, i) => i);
  const exactWeights = p.map((x) => logOddsWeight(x, K));
  const usedWeights = weights ?? exactWeights;
  const gossip = peerGossip(p, K, LAB_CONFIDENCE, { switchProbability: results.switchProbability, maxRounds: results.gossipRounds });
  const quorumSaved = productRuleCallsSaved(p, K, LAB_CONFIDENCE, order);
  const majority = productRuleAccuracy(p, K, LAB_CONFIDENCE);
  return {
    accuracy: {
      majority_voting: majority,
      weighted_voting: productRuleAccuracy(p, K, LAB_CONFIDENCE, usedWeights),
      judge: confidenceJudgeAccuracy(p, K, LAB_CONFIDENCE),
      gossip: gossip.accuracy,
      early_quorum: majority,
    } satisfies Record<ModeKey, number>,
    /** Weighted voting with the exact log-odds weights of the configured accuracies. */
    weightedExact: productRuleAccuracy(p, K, LAB_CONFIDENCE, exactWeights),
    /** `@sd/ensemble`'s figures: votes without confidence, ties broken at random. */
    randomTies: {
      majority_voting: pluralityAccuracy(p, K),
      weighted_voting: weightedPluralityAccuracy(p, usedWeights, K),
      early_quorum: pluralityAccuracy(p, K),
    } as Partial<Record<ModeKey, number>>,
    calls: { majority_voting: n, weighted_voting: n, judge: n + 1, gossip: n * gossip.rounds, early_quorum: n - quorumSaved } satisfies Record<ModeKey, number>,
    quorumSaved,
    quorumSavedRandomTies: expectedCallsSaved(p, K, order),
  };
}

/**
 * The calls early quorum should skip on this question when the answers arrive in panel order: the
 * product's own rule (`earlyQuorum`) applied to the answers the majority run got for the question
 * (the lab gives a model the same answer to a question in every run).
 */
function prescribedSkips(panel: Panel, majority: DecisionOutcome): number {
  const answers = panel.members.map((id) => majority.record.roundOne.find((a) => a.provider === id) ?? { provider: id, category: null, confidence: null });
  const weights = Object.fromEntries(panel.members.map((id) => [id, 1]));
  for (let arrived = 1; arrived < answers.length; arrived++) {
    const verdict = earlyQuorum({ categories: majority.question.categories, weights, answers: answers.slice(0, arrived), pending: panel.members.slice(arrived) });
    if (verdict.decided) return answers.length - arrived;
  }
  return 0;
}

export function printCalibration(results: LabResults): void {
  console.log("### Calibration: each model's accuracy, measured on separate labelled questions\n");
  printTable(
    ["model (provider id)", "configured", "measured (95% interval)", "questions"],
    results.calibration.map((c) => [`${labelOf(c.id)} (${c.id})`, pct(c.configured), range(wilson(c.right, c.questions)), String(c.questions)]),
  );
  console.log("\nThe weighted runs start the stack with WEIGHTING=learned and each <ID>_ACCURACY set to the measured figure.\n");
}

export function printSingles(results: LabResults): void {
  console.log("### Each model alone (a panel of one), on the evaluation questions\n");
  printTable(
    ["model", "configured accuracy", "measured (95% interval)", "p50 latency"],
    [...results.singles].map(([id, outcomes]) => [labelOf(id), pct(specOf(id).accuracy), range(accuracyOf(outcomes)), `${percentiles(outcomes.map((o) => o.latencyMs)).p50.toFixed(0)} ms`]),
  );
  console.log("");
}

type Theory = ReturnType<typeof theoryOf>;

/** Prints the panel's tables; returns its targets. */
export function printPanel(runs: PanelRuns, results: LabResults): Target[] {
  const { panel } = runs;
  const weights = runs.runs.weighted_voting ? learnedWeights(panel, runs.runs.weighted_voting) : null;
  const theory = theoryOf(panel, results, weights);
  const members = panel.members.map((id) => `${labelOf(id)} ${pct(specOf(id).accuracy, 0)} (${specOf(id).latencyMs} ms)`).join(" → ");
  console.log(`### Panel ${panel.name}: ${panel.members.map((id) => specOf(id).accuracy).join(" / ")}\n`);
  console.log(`Arrival order (lab latency): ${members}.`);
  if (weights) console.log(`Learned weights (ln(p(K−1)/(1−p)) of the measured accuracies): ${panel.members.map((id, i) => `${labelOf(id)} ${weights[i]!.toFixed(2)}`).join(", ")}.`);
  console.log("");
  printModes(runs, results, theory);
  printPaired(runs, results, theory);
  const majorityAccuracy = accuracyOf(runs.runs.majority_voting);
  const targets: Target[] = [
    {
      name: `Panel ${panel.name}: majority's accuracy within its 95% interval of the theory (product's rule)`,
      pass: contains(majorityAccuracy, theory.accuracy.majority_voting),
      detail: `measured ${range(majorityAccuracy)}, theory ${pct(theory.accuracy.majority_voting)} (random-tie theory ${pct(theory.randomTies.majority_voting!)}: ${contains(majorityAccuracy, theory.randomTies.majority_voting!) ? "inside" : "outside"})`,
      binding: true,
    },
  ];
  if (runs.runs.early_quorum) targets.push(...printQuorum(runs, runs.runs.early_quorum, theory));
  for (const mode of ["judge", "gossip"] as const) {
    const outcomes = runs.runs[mode];
    if (!outcomes) continue;
    const measured = accuracyOf(outcomes);
    targets.push({
      name: `Panel ${panel.name}: ${mode} measured (honestly; not a gate)`,
      pass: contains(measured, theory.accuracy[mode]),
      detail: `measured ${range(measured)}, the lab's model predicts ${pct(theory.accuracy[mode])}; vs majority ${signedPct(paired(outcomes, runs.runs.majority_voting))}`,
      binding: false,
    });
  }
  if (runs.runs.weighted_voting) targets.push(...weightedTargets(runs, runs.runs.weighted_voting, results, theory));
  return targets;
}

const modeLabel = (mode: ModeKey, results: LabResults): string =>
  ({
    majority_voting: "majority_voting",
    weighted_voting: "weighted_voting (learned weights)",
    judge: `judge (${labelOf(results.judge)})`,
    gossip: `gossip (≤ ${results.gossipRounds} rounds, switch ${results.switchProbability})`,
    early_quorum: "majority_voting + early_quorum",
  })[mode];

/** One row per mode run: accuracy next to theory, calls per decision (emulator, expected, record), p50 latency. */
function printModes(runs: PanelRuns, results: LabResults, theory: Theory): void {
  printTable(
    ["mode", "accuracy (95% interval)", "theory, product's rule", "theory, random ties", "calls/decision (emulator)", "expected", "record", "p50 latency"],
    MODES.flatMap((mode) => {
      const outcomes = runs.runs[mode];
      if (!outcomes) return [];
      const randomTies = theory.randomTies[mode];
      return [
        [
          modeLabel(mode, results),
          range(accuracyOf(outcomes)),
          pct(theory.accuracy[mode]),
          randomTies === undefined ? "—" : pct(randomTies),
          mean(outcomes.map((o) => o.emulator.answered)).toFixed(2),
          theory.calls[mode].toFixed(2),
          mean(outcomes.map((o) => o.record.calls)).toFixed(2),
          `${percentiles(outcomes.map((o) => o.latencyMs)).p50.toFixed(0)} ms`,
        ],
      ];
    }),
  );
  if (runs.runs.judge) console.log(`\nThe judge failed (and the vote decided) ${runs.runs.judge.filter((o) => o.record.judgeFallback).length} times.`);
  console.log("");
}

/**
 * Each mode against majority on the same questions: the lab gives a model the same answer to a
 * question in every run, so only the questions the two decide differently count, and a difference
 * far smaller than either accuracy's interval can show (Newcombe's paired interval, stats.ts).
 */
function printPaired(runs: PanelRuns, results: LabResults, theory: Theory): void {
  const rows = MODES.flatMap((mode) => {
    const outcomes = runs.runs[mode];
    if (mode === BASELINE || !outcomes) return [];
    const d = paired(outcomes, runs.runs.majority_voting);
    const exact = theory.accuracy[mode] - theory.accuracy.majority_voting;
    const weightedExact = mode === "weighted_voting" ? ` (${signed(theory.weightedExact - theory.accuracy.majority_voting, 2)} with the exact log-odds weights)` : "";
    return [[`${modeLabel(mode, results)} − majority`, String(d.questions), String(d.onlyFirst), String(d.onlySecond), signedPct(d), `${d.low > 0 || d.high < 0 ? "yes" : "no"}`, `${signed(exact, 2)}${weightedExact}`]];
  });
  if (rows.length === 0) return;
  console.log(`Paired with majority_voting on the same questions (95% interval: Newcombe's for paired proportions):\n`);
  printTable(["difference", "questions", "only this mode right", "only majority right", "difference (95% interval)", "interval excludes 0", "theory, product's rule"], rows);
  console.log("");
}

/** Early quorum against majority on the same questions: calls saved, per-question agreement, cancellation time; returns its targets. */
function printQuorum(runs: PanelRuns, quorum: readonly DecisionOutcome[], theory: Theory): Target[] {
  const { panel } = runs;
  const n = panel.members.length;
  const majority = runs.runs.majority_voting;
  const saved = meanInterval(quorum.map((o) => (n - o.emulator.answered) / n));
  // `paired` checks that both runs asked the same questions in the same order.
  const change = paired(quorum, majority);
  const identical = quorum.filter((o, i) => o.decision === majority[i]!.decision).length;
  printTable(
    ["early quorum", "calls saved (95% interval)", "theory, product's rule", "theory, no confidence", "record's calls_saved", "cancelled on the wire", "same decision as majority", "accuracy change"],
    [
      [
        `panel ${panel.name}`,
        range(saved),
        pct(theory.quorumSaved / n),
        pct(theory.quorumSavedRandomTies / n),
        pct(mean(quorum.map((o) => o.record.callsSaved ?? 0)) / n),
        `${mean(quorum.map((o) => o.emulator.dropped)).toFixed(2)}/decision`,
        `${identical} of ${quorum.length}`,
        signedPct(change),
      ],
    ],
  );
  const prescribed = quorum.map((_, i) => prescribedSkips(panel, majority[i]!));
  const skippedAsPrescribed = quorum.filter((o, i) => o.record.skipped.length === prescribed[i]).length;
  const savedAsPrescribed = quorum.filter((o, i) => n - o.emulator.answered === prescribed[i]).length;
  const reactions = quorum.flatMap((o) => (o.emulator.cancelAfterMs === null ? [] : [o.emulator.cancelAfterMs]));
  const reaction = percentiles(reactions);
  console.log(
    `\nPer question: early quorum skipped exactly the calls its rule prescribes for this arrival order (given the answers the majority run got) on ${skippedAsPrescribed} of ${quorum.length} questions, ` +
      `and the emulator answered exactly the others on ${savedAsPrescribed}; prescribed savings on these questions: ${pct(mean(prescribed) / n)} (the theory's ${pct(theory.quorumSaved / n)} is the expectation over all questions).`,
  );
  console.log(
    `Cancellation: the skipped calls were cut on the wire ${reaction.p50.toFixed(0)} ms (p50; p95 ${reaction.p95.toFixed(0)} ms) after the deciding answer (${reactions.length} decisions).\n`,
  );
  return [
    {
      name: `Panel ${panel.name}: early quorum saves the calls the theory predicts for this arrival order`,
      pass: contains(saved, theory.quorumSaved / n),
      detail: `measured ${range(saved)}, theory ${pct(theory.quorumSaved / n)} (no-confidence theory ${pct(theory.quorumSavedRandomTies / n)})`,
      binding: true,
    },
    {
      name: `Panel ${panel.name}: early quorum changes no decision`,
      pass: identical === quorum.length,
      detail: `${identical} of ${quorum.length} decisions identical to majority's on the same questions; accuracy change ${signedPct(change)}`,
      binding: true,
    },
  ];
}

/**
 * Weighted voting against majority and against the panel's best single model, on the same
 * questions (paired). Targets on panel B (above majority, not below the best model); on the
 * other panels the same figures are printed as observations.
 */
function weightedTargets(runs: PanelRuns, weighted: readonly DecisionOutcome[], results: LabResults, theory: Theory): Target[] {
  const { panel } = runs;
  const vsMajority = paired(weighted, runs.runs.majority_voting);
  const best = panel.members
    .map((id) => ({ id, outcomes: results.singles.get(id)! }))
    .sort((a, b) => accuracyOf(b.outcomes).value - accuracyOf(a.outcomes).value)[0]!;
  const vsBest = paired(weighted, best.outcomes);
  const exact = theory.weightedExact - theory.accuracy.majority_voting;
  const shown = vsMajority.low > 0 ? "the interval is above 0" : vsMajority.high < 0 ? "the interval is below 0" : "the interval includes 0";
  const aboveMajority =
    `weighted − majority ${signedPct(vsMajority)} over ${vsMajority.questions} questions (${vsMajority.onlyFirst} only weighted right, ${vsMajority.onlySecond} only majority right; ${shown}); ` +
    `theory ${signed(theory.accuracy.weighted_voting - theory.accuracy.majority_voting, 2)} with the learned weights, ${signed(exact, 2)} with the exact ones`;
  const notBelowBest = `weighted − ${labelOf(best.id)} ${signedPct(vsBest)}`;
  if (panel.name !== "B") {
    console.log(`Weighted voting on panel ${panel.name} (not a target): ${aboveMajority}; ${notBelowBest}.\n`);
    return [];
  }
  return [
    { name: `Panel ${panel.name}: weighted voting above majority`, pass: vsMajority.value > 0, detail: aboveMajority, binding: true },
    {
      name: `Panel ${panel.name}: weighted voting not below the best single model, ${labelOf(best.id)}`,
      pass: vsBest.high >= 0,
      detail: `${notBelowBest}: not below unless the whole interval is`,
      binding: true,
    },
  ];
}

export function printTargets(targets: readonly Target[]): boolean {
  console.log("### Targets\n");
  for (const t of targets) console.log(`- **${t.pass ? "PASS" : "FAIL"}** ${t.name}: ${t.detail}.`);
  console.log("");
  return targets.every((t) => t.pass || !t.binding);
}
