import { groupCpuMs, percentiles, row } from "../kit";
import { ALONE, type CapacityResult, type LoadedRow } from "./capacity-phases";
import type { BenchOptions } from "./options";
import { capacitySettings, startLogFacts } from "./product-defaults";
import { errorsOf, ms, percent, signedMs } from "./report";
import { overtakes, type SteadyRun } from "./steady-load";

/** The capacity targets: what a user's start should reach on this machine. */
const TARGET = {
  /** (a): decisions/s against C / the slowest model's latency, and p50 against that latency. */
  idealShare: 0.85,
  p50OverSlowest: 1.15,
  /** (b): decisions/s at C=250 of 1 s models. */
  perSecondAt250: 110,
  /** (c): the spread of latencies with 150 ms models at C=200. */
  p99OverP50: 2,
  maxOverP50: 3,
  /** (d): one user, models answering at once, ms. */
  p50Alone: 18,
} as const;

const W = 64;
const CELL = 20;

/** A row of the table; `pass` null for a figure with no target (a row with errors never passes); `note` after it all. */
function line(label: string, measured: string, target = "", pass: boolean | null = null, note = ""): string {
  return `${row(label, W, [measured, target], CELL)}  ${pass === null ? "" : pass ? "PASS" : "MISS"}${note}`.trimEnd();
}

const perSecond = (v: number) => `${v.toFixed(1)}/s`;
const times = (v: number) => (Number.isFinite(v) ? `${v.toFixed(2)}x` : "n/a");
const pair = (a: number, b: number, digits = 0) => `${a.toFixed(digits)} / ${b.toFixed(digits)} ms`;

/** Decisions answered within the window (what decisions/s counts). */
const answeredInWindow = (run: SteadyRun) => run.perSecond * run.record.seconds;

/**
 * The window: when it opened, how many decisions it measured and their errors; the machine's busy
 * share, with what this benchmark's processes and Redis do not account for (others on a shared
 * machine, whose share makes figures of one run incomparable with a quiet one's); the product's CPU
 * per decision, by process (a product that forks its workers counts theirs).
 */
function windowLines(r: LoadedRow): string[] {
  const { host, cpu, loadGeneratorCpuMs, redisCpuMs } = r.usage;
  const decisions = Math.max(1, answeredInWindow(r.run));
  const product = groupCpuMs(r.usage, "product");
  const others = host ? host.busy * Math.max(0, 1 - (product + loadGeneratorCpuMs + redisCpuMs) / host.busyMs) : Number.NaN;
  const stolen = host && host.steal > 0.05 ? `, hypervisor ${percent(host.steal)}` : "";
  const byProcess = [...cpu.product].map(([label, value]) => `${label} ${(value / decisions).toFixed(1)}`).join(", ");
  return [
    line(
      `  window (opened ${r.run.openedAfter.toFixed(1)} s after the start): decisions, errors`,
      `${r.run.record.answered.length + r.run.record.errors}, ${errorsOf(r.run.record)}`,
    ),
    line("  machine busy (others' share)", `${host ? percent(host.busy) : "n/a"} (${percent(others)}${stolen})`),
    line("  product CPU per decision", ms(product / decisions, 1), "", null, `(${byProcess} ms)`),
  ];
}

function rowTitle(r: LoadedRow): string {
  const alone = r.alone.latency().p50;
  return `  (${r.key}) ${r.latencyMs} ms models (SIMULATED_LATENCY_MS=${r.latencyMs}), C=${r.concurrency}: slowest model of the panel ${r.settings.slowestMs} ms; a decision alone took ${ms(alone)}`;
}

function throughputRow(r: LoadedRow): string[] {
  const l = r.run.record.latency();
  const ideal = r.concurrency / (r.settings.slowestMs / 1000);
  const share = r.run.perSecond / ideal;
  const slowest = l.p50 / r.settings.slowestMs;
  const clean = r.run.record.errors === 0;
  return [
    rowTitle(r),
    line(`  decisions/s, against the ideal C / slowest = ${perSecond(ideal)}`, `${perSecond(r.run.perSecond)} = ${times(share)}`, `>= ${TARGET.idealShare}x`, clean && share >= TARGET.idealShare),
    line("  p50, against the slowest model", `${ms(l.p50)} = ${times(slowest)}`, `<= ${TARGET.p50OverSlowest}x`, clean && slowest <= TARGET.p50OverSlowest),
    line("  p99", ms(l.p99)),
    ...windowLines(r),
  ];
}

function manyUsersRow(r: LoadedRow): string[] {
  const l = r.run.record.latency();
  const ideal = r.concurrency / (r.settings.slowestMs / 1000);
  return [
    rowTitle(r),
    line(`  decisions/s (ideal C / slowest = ${perSecond(ideal)})`, `${perSecond(r.run.perSecond)} = ${times(r.run.perSecond / ideal)}`, `>= ${TARGET.perSecondAt250}/s`, r.run.record.errors === 0 && r.run.perSecond >= TARGET.perSecondAt250),
    line("  p50 / p99", pair(l.p50, l.p99)),
    ...windowLines(r),
  ];
}

function fairnessRow(r: LoadedRow): string[] {
  const { answered, errors } = r.run.record;
  const l = r.run.record.latency();
  const max = answered.reduce((a, b) => Math.max(a, b), 0);
  const overtaken = overtakes(r.run.timeline);
  const worst = overtaken.reduce((a, b) => Math.max(a, b), 0);
  const ideal = r.concurrency / (r.settings.slowestMs / 1000);
  return [
    rowTitle(r),
    line("  p50 / p99 / max", `${l.p50.toFixed(0)} / ${l.p99.toFixed(0)} / ${max.toFixed(0)} ms`),
    line("  p99 / p50", times(l.p99 / l.p50), `<= ${TARGET.p99OverP50}x`, errors === 0 && l.p99 <= TARGET.p99OverP50 * l.p50),
    line("  max / p50", times(max / l.p50), `<= ${TARGET.maxOverP50}x`, errors === 0 && max <= TARGET.maxOverP50 * l.p50),
    line("  overtakes (later decisions answered first): p99 / max", `${percentiles(overtaken).p99} / ${worst}`),
    line(`  decisions/s (ideal C / slowest = ${perSecond(ideal)})`, `${perSecond(r.run.perSecond)} = ${times(r.run.perSecond / ideal)}`),
    ...windowLines(r),
  ];
}

function singleUserRow({ product, queue, baseline }: CapacityResult["single"]): string[] {
  const p = product.record.latency();
  const q = queue.record.latency();
  const b = baseline.record.latency();
  const count = (run: SteadyRun) => `${run.record.answered.length + run.record.errors}, ${errorsOf(run.record)}`;
  return [
    "  (d) one user (C=1), models answering at once (SIMULATED_LATENCY_MS=0), in the same run:",
    line("  product end to end (main.ts, its own emulator): p50 / p99", pair(p.p50, p.p99, 1), `p50 <= ${TARGET.p50Alone} ms`, product.record.errors === 0 && p.p50 <= TARGET.p50Alone),
    line("  bare BullMQ flow (the queue alone, in this process): p50 / p99", pair(q.p50, q.p99, 1)),
    line("  direct baseline (3 SDK calls, emulator at 0 ms): p50 / p99", pair(b.p50, b.p99, 1)),
    line("  product - bare flow / product - baseline, at p50", `${signedMs(p.p50 - q.p50)} / ${signedMs(p.p50 - b.p50)}`),
    line("  decisions measured, errors: product", count(product)),
    line("                              bare flow", count(queue)),
    line("                              baseline", count(baseline)),
  ];
}

/** The capacity part: the settings in force, read back, then the rows with their targets. */
export function capacityReport(result: CapacityResult, options: BenchOptions): string {
  const first = result.rows[0]!;
  const { seconds, n, warmupSeconds } = options.capacity;
  const panel = first.settings.panel.map((model) => `${model.id} ${model.latencyMs} ms`).join(", ");
  const latencies = [...result.rows.map((r) => r.latencyMs), 0].join(" / ");
  const overrides = Object.entries(first.given)
    .filter(([name]) => name !== "SIMULATED_LATENCY_MS")
    .map(([name, value]) => `${name}=${value}`);
  const [a, b, c] = result.rows as [LoadedRow, LoadedRow, LoadedRow];
  return [
    "== Capacity on the product's defaults: the product as `npm start` runs it for a user ==",
    "",
    "  services/all-in-one/src/main.ts with no API key (its built-in provider emulator answers every model), a fresh start per row.",
    `  Settings in force, as the product's schema reads the environment given (product defaults): ${capacitySettings(first.settings.env).join(", ")}.`,
    `  Overrides, what a load test must change: ${overrides.join(", ")}, PORT=<a free port>, SIMULATED_LATENCY_MS=${latencies} (rows a / b / c / d).`,
    `  The product's start log (row a): ${startLogFacts(first.startLog).join("; ")}.`,
    `  The panel's simulated answer times at SIMULATED_LATENCY_MS=${first.latencyMs}: ${panel} (libs/runtime/src/simulation.ts's stagger); a decision waits for the slowest.`,
    `  Each row: ${ALONE} decisions alone, then a closed loop whose users join over one slowest-model latency and run ${warmupSeconds} s more as warm-up;`,
    `  the measured window opens then, once every user has had an answer, for ${seconds} s or ${n} decisions sent, whichever comes first.`,
    "  decisions/s counts the answers within the window; latencies are those of the decisions sent in it (their answers awaited).",
    "",
    `  ${"".padEnd(W)}${"measured".padStart(CELL)}${"target".padStart(CELL)}  result`,
    ...throughputRow(a),
    ...manyUsersRow(b),
    ...fairnessRow(c),
    ...singleUserRow(result.single),
    "",
  ].join("\n");
}
