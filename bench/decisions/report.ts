import { ADAPTER_CONCURRENCY } from "./adapter-phases";
import type { ApiResult, ImagesResult } from "./api-phases";
import type { PhaseRecord } from "./http-load";
import type { BenchOptions, Variant } from "./options";
import { groupCpuMs, median, percentiles, row, type HostShares, type SystemCalls, type UsageDelta } from "../kit";
import type { ComparedRuns, MeteredRun, VariantResult } from "./variant-phases";

export const VARIANT_TITLES: Record<Variant, string> = {
  one: "one process: all-in-one (gateway + provider workers + aggregator)",
  split: "split: one gateway, one provider-worker and one aggregator process",
};

export const ms = (v: number, digits = 0) => (Number.isFinite(v) ? `${v.toFixed(digits)} ms` : "n/a");
const ratio = (a: number, b: number) => (Number.isFinite(a / b) ? `${(a / b).toFixed(2)}x` : "n/a");
export const signedMs = (v: number) => (Number.isFinite(v) ? `${v >= 0 ? "+" : "-"}${Math.abs(v).toFixed(1)} ms` : "n/a");
export const errorsOf = (record: PhaseRecord) => (record.errors === 0 ? "0" : `${record.errors} (e.g. ${record.errorSamples[0]})`);

/** `value` of a run's usage (e.g. one group's CPU ms) per decision answered. */
const perDecision = (run: MeteredRun, value: (usage: UsageDelta) => number) => value(run.usage) / Math.max(1, run.record.answered.length);

/** CPU ms per decision of the product's Node processes, and of the baseline process, in one pair of runs. */
const productCpu = (runs: ComparedRuns) => perDecision(runs.pipeline, (u) => groupCpuMs(u, "product"));
const baselineCpu = (runs: ComparedRuns) => perDecision(runs.baseline, (u) => groupCpuMs(u, "baseline"));
/** The product's Node CPU per decision beyond the baseline's (the SDK calls both make). */
const cpuBeyondSdk = (runs: ComparedRuns) => productCpu(runs) - baselineCpu(runs);

/**
 * The whole machine's busy CPU per decision over a run (every process and Redis; /proc/stat), NaN
 * off Linux. At saturation the machine is the limit, so the throughput ratio follows the ratio of
 * these figures: this is what the pipeline may spend to reach a throughput target.
 */
const machineCpu = (run: MeteredRun) => perDecision(run, (u) => u.host?.busyMs ?? Number.NaN);

/** Machine CPU ms of a pair, as "a / b" ("n/a" off Linux, as the busy shares beside them). */
const machinePair = (a: number, b: number) => [a, b].map((v) => (Number.isFinite(v) ? v.toFixed(1) : "n/a")).join(" / ");

/** How the users of a latency phase joined, for its title. */
const joining = (c: number, rampMs: number): string => (rampMs > 0 ? `the ${c} users join over ${rampMs} ms` : `the ${c} users start at once`);

function latencyTable(runs: ComparedRuns, n: number, rampMs: number): string[] {
  const p = runs.pipeline.record.latency();
  const b = runs.baseline.record.latency();
  const w = 38;
  return [
    `Latency at concurrency ${runs.concurrency} (N=${n} each, after the warm-up; ${joining(runs.concurrency, rampMs)})`,
    row("", w, ["p50", "p95", "p99", "decisions/s", "errors"]),
    row("pipeline", w, [ms(p.p50), ms(p.p95), ms(p.p99), runs.pipeline.record.perSecond.toFixed(1), errorsOf(runs.pipeline.record)]),
    row("direct baseline", w, [ms(b.p50), ms(b.p95), ms(b.p99), runs.baseline.record.perSecond.toFixed(1), errorsOf(runs.baseline.record)]),
    row("pipeline / baseline", w, [ratio(p.p50, b.p50), ratio(p.p95, b.p95), ratio(p.p99, b.p99), ratio(runs.pipeline.record.perSecond, runs.baseline.record.perSecond)]),
    row("added overhead (pipeline - baseline)", w, [signedMs(p.p50 - b.p50), "", signedMs(p.p99 - b.p99)]),
  ];
}

function saturationTable(runs: ComparedRuns, n: number): string[] {
  const w = 38;
  const line = (label: string, run: MeteredRun) => {
    const l = run.record.latency();
    return row(label, w, [run.record.perSecond.toFixed(1), errorsOf(run.record), ms(l.p50), ms(l.p99)]);
  };
  return [
    `Saturation at concurrency ${runs.concurrency} (N=${n} each; the users start at once)`,
    row("", w, ["decisions/s", "errors", "p50", "p99"]),
    line("pipeline", runs.pipeline),
    line("direct baseline", runs.baseline),
    row("throughput pipeline / baseline", w, [ratio(runs.pipeline.record.perSecond, runs.baseline.record.perSecond)]),
  ];
}

/** The noisy figures of one round: p50 and added p99 at BENCH_C, saturation throughput and CPU beyond the SDK calls. */
interface RoundFigures {
  p50Ratio: number;
  addedP99: number;
  throughputRatio: number;
  /** The product's Node CPU per decision minus the baseline's, at saturation (ms). */
  cpuBeyondSdk: number;
  /** The machine's busy CPU per decision at saturation, pipeline run and baseline run (ms). */
  machinePipeline: number;
  machineBaseline: number;
  errors: number;
  /** The largest share of the machine's CPU the hypervisor took in any of the round's four runs (NaN off Linux). */
  steal: number;
}

function roundFigures({ latency, saturation }: { latency: ComparedRuns; saturation: ComparedRuns }): RoundFigures {
  const p = latency.pipeline.record.latency();
  const b = latency.baseline.record.latency();
  return {
    p50Ratio: p.p50 / b.p50,
    addedP99: p.p99 - b.p99,
    throughputRatio: saturation.pipeline.record.perSecond / saturation.baseline.record.perSecond,
    cpuBeyondSdk: cpuBeyondSdk(saturation),
    machinePipeline: machineCpu(saturation.pipeline),
    machineBaseline: machineCpu(saturation.baseline),
    errors: saturation.pipeline.record.errors,
    steal: mostStolen([latency, saturation]),
  };
}

/** The largest share of the machine's CPU the hypervisor took during any run of `phases` (NaN off Linux). */
const mostStolen = (phases: readonly ComparedRuns[]): number =>
  Math.max(...phases.flatMap((runs) => [runs.pipeline, runs.baseline]).map((run) => run.usage.host?.steal ?? Number.NaN));

export const percent = (share: number) => (Number.isFinite(share) ? `${(100 * share).toFixed(0)}%` : "n/a");

/** Every round's figures, the first round first. */
const rounds = (result: VariantResult): RoundFigures[] => [result, ...result.moreRounds].map(roundFigures);

/** The median of every round's figures (the targets use them). */
function medianFigures(result: VariantResult): RoundFigures {
  const all = rounds(result);
  return {
    p50Ratio: median(all.map((f) => f.p50Ratio)),
    addedP99: median(all.map((f) => f.addedP99)),
    throughputRatio: median(all.map((f) => f.throughputRatio)),
    cpuBeyondSdk: median(all.map((f) => f.cpuBeyondSdk)),
    machinePipeline: median(all.map((f) => f.machinePipeline)),
    machineBaseline: median(all.map((f) => f.machineBaseline)),
    errors: all.reduce((sum, f) => sum + f.errors, 0),
    steal: median(all.map((f) => f.steal)),
  };
}

function roundsTable(result: VariantResult): string[] {
  const w = 38;
  const all = rounds(result);
  const cells = (f: RoundFigures) => [ratio(f.p50Ratio, 1), signedMs(f.addedP99), ratio(f.throughputRatio, 1), ms(f.cpuBeyondSdk, 2), percent(f.steal)];
  return [
    `Rounds (BENCH_ROUNDS=${all.length}): the same pairs again on the same deployment; the targets below use the medians`,
    row("", w, [`C=${result.latency.concurrency} p50`, "added p99", "saturation", "CPU beyond SDK", "CPU stolen"], 15),
    ...all.map((f, i) => row(`round ${i + 1}`, w, cells(f), 15)),
    row("median", w, cells(medianFigures(result)), 15),
  ];
}

/** One share of the machine's CPU over a pair's pipeline and baseline runs, as "pipeline / baseline" percentages. */
const hostShares = (runs: ComparedRuns, share: (host: HostShares) => number): string =>
  [runs.pipeline, runs.baseline].map((run) => (run.usage.host ? percent(share(run.usage.host)) : "n/a")).join(" / ");

/** A run's read and write system calls per decision, as "reads / writes" ("n/a" where /proc could not tell). */
function systemCallsPerDecision(run: MeteredRun, pick: (usage: UsageDelta) => SystemCalls | null): string {
  const calls = pick(run.usage);
  if (calls === null) return "n/a";
  return `${perDecision(run, () => calls.reads).toFixed(1)} / ${perDecision(run, () => calls.writes).toFixed(1)}`;
}

function cpuTable(result: VariantResult): string[] {
  const phases = [result.latency, result.saturation];
  const w = 58;
  const cpu = (pick: (runs: ComparedRuns) => number) => phases.map((runs) => pick(runs).toFixed(2));
  const redis = (runs: ComparedRuns) => perDecision(runs.pipeline, (u) => u.redisCpuMs);
  const lines = [
    "CPU ms per decision (user+sys: /proc/<pid>/stat for each process, INFO cpu for Redis)",
    row("", w, phases.map((runs) => `C=${runs.concurrency}`)),
    row("product Node processes", w, cpu(productCpu)),
  ];
  if (result.labels.length > 1) {
    for (const label of result.labels) {
      lines.push(row(`  ${label}`, w, cpu((runs) => perDecision(runs.pipeline, (u) => u.cpu.product.get(label) ?? Number.NaN))));
    }
  }
  lines.push(
    row("Redis (during the pipeline run)", w, cpu(redis)),
    row("direct baseline process", w, cpu(baselineCpu)),
    row("product beyond the SDK calls (product Node - baseline)", w, cpu(cpuBeyondSdk)),
    row("  the same, with Redis", w, cpu((runs) => cpuBeyondSdk(runs) + redis(runs))),
    row("emulator, during the pipeline run", w, cpu((runs) => perDecision(runs.pipeline, (u) => groupCpuMs(u, "emulator")))),
    row("emulator, during the baseline run", w, cpu((runs) => perDecision(runs.baseline, (u) => groupCpuMs(u, "emulator")))),
    row("product Node processes while idle (baseline run), ms/s", w, cpu((runs) => groupCpuMs(runs.baseline.usage, "product") / runs.baseline.record.seconds)),
    row("load generator (this process), pipeline run", w, cpu((runs) => perDecision(runs.pipeline, (u) => u.loadGeneratorCpuMs))),
    row("load generator (this process), baseline run", w, cpu((runs) => perDecision(runs.baseline, (u) => u.loadGeneratorCpuMs))),
    "Read / write system calls per decision (/proc/<pid>/io: sockets and files)",
    row("product Node processes", w, phases.map((runs) => systemCallsPerDecision(runs.pipeline, (u) => u.systemCalls.product))),
    row("direct baseline process", w, phases.map((runs) => systemCallsPerDecision(runs.baseline, (u) => u.systemCalls.baseline))),
    row("Redis (during the pipeline run)", w, phases.map((runs) => systemCallsPerDecision(runs.pipeline, (u) => u.redisSystemCalls))),
    "The machine, all its cores (/proc/stat): % of their time, and busy CPU ms per decision",
    row("busy, pipeline run / baseline run", w, phases.map((runs) => hostShares(runs, (h) => h.busy))),
    row("busy CPU ms per decision, pipeline run / baseline run", w, phases.map((runs) => machinePair(machineCpu(runs.pipeline), machineCpu(runs.baseline)))),
    row("stolen by the hypervisor, pipeline run / baseline run", w, phases.map((runs) => hostShares(runs, (h) => h.steal))),
  );
  return lines;
}

function redisTable(result: VariantResult): string[] {
  const phases = [result.latency, result.saturation];
  const { census } = result;
  const w = 30;
  const perDecisionOf = (commands: ReadonlyMap<string, number>, decisions: number, name: string | null) => {
    const calls = name === null ? [...commands.values()].reduce((a, b) => a + b, 0) : (commands.get(name) ?? 0);
    return (calls / Math.max(1, decisions)).toFixed(1);
  };
  const cells = (name: string | null) => [
    ...phases.map((runs) => perDecisionOf(runs.pipeline.usage.commands, runs.pipeline.record.answered.length, name)),
    ...(census ? [perDecisionOf(census.sent, census.decisions, name), perDecisionOf(census.inLua, census.decisions, name)] : []),
  ];
  // The busiest commands of the saturation run, then any other the product sends at least once per decision.
  const names = [...result.saturation.pipeline.usage.commands].sort((a, b) => b[1] - a[1]).slice(0, 10).map(([name]) => name);
  for (const [name, calls] of census?.sent ?? []) if (!names.includes(name) && calls >= census!.decisions) names.push(name);
  const idle = phases.map((runs) => {
    const calls = [...runs.baseline.usage.commands.values()].reduce((a, b) => a + b, 0);
    return `${(calls / runs.baseline.record.seconds).toFixed(0)}/s at C=${runs.concurrency}`;
  });
  return [
    "Redis commands per decision. INFO commandstats over the timed pipeline runs counts every command Redis ran, those inside",
    "Lua scripts too (the meter's own INFO and CLIENT LIST left out)." +
      (census
        ? ` The census tells them apart: MONITOR over ${census.decisions} untimed decisions at C=${result.latency.concurrency}, the product's own connections only.`
        : ""),
    row("", w, [...phases.map((runs) => `C=${runs.concurrency}, all`), ...(census ? ["sent (census)", "in Lua (census)"] : [])], 17),
    row("all commands", w, cells(null), 17),
    ...names.map((name) => row(`  ${name}`, w, cells(name), 17)),
    `  while the product sat idle (during the baseline runs) Redis ran ${idle.join(", ")} commands`,
  ];
}

function overloadTable(result: VariantResult): string[] {
  const { record, concurrency, maxInFlight } = result.overload;
  const answered = record.latency();
  const rejected = percentiles(record.rejected);
  const endToEnd = percentiles(record.endToEnd);
  const w = 38;
  const retryAfter = [...record.retryAfter].map(([value, count]) => `${value === "none" ? "no Retry-After" : `Retry-After: ${value}`} x${count}`).join(", ");
  return [
    `Overload at concurrency ${concurrency} (N=${record.answered.length + record.errors} decisions; MAX_IN_FLIGHT_DECISIONS=${maxInFlight}; a 503 is retried after its Retry-After)`,
    row("", w, ["count", "p50", "p99", "p99/p50", "decisions/s"]),
    row("answered (200)", w, [String(answered.runs), ms(answered.p50), ms(answered.p99), ratio(answered.p99, answered.p50), record.perSecond.toFixed(1)]),
    row("refused (503)", w, [String(rejected.runs), ms(rejected.p50), ms(rejected.p99)]),
    row("each decision, waits after 503s included", w, [String(endToEnd.runs), ms(endToEnd.p50), ms(endToEnd.p99), ratio(endToEnd.p99, endToEnd.p50)]),
    `  errors: ${errorsOf(record)}`,
    record.rejected.length === 0
      ? "  no 503: the gateway does not limit decisions in flight yet (MAX_IN_FLIGHT_DECISIONS is ignored), or the limit was never passed"
      : `  503 answers: ${retryAfter}`,
  ];
}

export function variantReport(result: VariantResult, options: BenchOptions): string {
  return [
    `== ${VARIANT_TITLES[result.variant]} ==`,
    "",
    ...latencyTable(result.latency, options.n, options.rampMs),
    "",
    ...saturationTable(result.saturation, options.saturation.n),
    "",
    ...(result.moreRounds.length > 0 ? [...roundsTable(result), ""] : []),
    ...cpuTable(result),
    "",
    ...redisTable(result),
    "",
    ...overloadTable(result),
    "",
  ].join("\n");
}

/** Which deployments other than ours were seen on Redis during the run. */
export function redisTrafficNote(results: readonly VariantResult[], privateRedis: boolean): string {
  const others = new Set<string>();
  for (const result of results) {
    for (const runs of [result.latency, result.saturation]) {
      for (const run of [runs.pipeline, runs.baseline]) for (const prefix of run.usage.otherPrefixes) others.add(prefix);
    }
  }
  if (privateRedis) return "Redis: the benchmark's own redis-server, so its commands and CPU are this run's alone.";
  if (others.size > 0) {
    return (
      `NOTE: Redis is shared and other deployments used it during the timed phases (QUEUE_PREFIX ${[...others].slice(0, 5).join(", ")}${others.size > 5 ? ", ..." : ""}):\n` +
      "  Redis CPU and command counts include their traffic. Run alone, or with BENCH_PRIVATE_REDIS=1, for exact figures."
    );
  }
  return "Redis: the whole server's CPU and command counts; they are this run's alone only when nothing else uses that Redis (no other deployment was seen).";
}

/** Above this share of stolen CPU in any timed run, the targets come with a warning. */
const NOTABLE_STEAL = 0.05;

const yes = (pass: boolean) => (pass ? "yes" : "NO");

/** Issue 12's targets, per variant, from the figures above. */
export function targetsReport(results: readonly VariantResult[], api: ApiResult, options: BenchOptions): string {
  const w = 56;
  const cell = (text: string) => text.padStart(18);
  const roundCount = 1 + (results[0]?.moreRounds.length ?? 0);
  const title = roundCount > 1 ? `Targets of issue 12 (met?); the first four are medians of ${roundCount} rounds` : "Targets of issue 12 (met?)";
  // The issue sets the latency targets at C=20; BENCH_C may differ, and the labels say what was measured.
  const c = results[0]?.latency.concurrency ?? 20;
  const lines = [
    title,
    `  (C=${c} and early quorum: ${joining(c, options.rampMs)}; saturation and overload: the users start at once)`,
    `  ${"".padEnd(w)}${results.map((r) => cell(r.variant === "one" ? "one process" : "split")).join("")}`,
  ];
  const target = (label: string, value: (r: VariantResult) => string) => lines.push(`  ${label.padEnd(w)}${results.map((r) => cell(value(r))).join("")}`);
  target(`C=${c} p50 within 1.05x of the baseline`, (r) => {
    const v = medianFigures(r).p50Ratio;
    // Three decimals: 1.054 would read as 1.05x next to a NO.
    return `${v.toFixed(3)}x ${yes(v <= 1.05)}`;
  });
  target(`C=${c} added overhead at p99 under 25 ms`, (r) => {
    const v = medianFigures(r).addedP99;
    return `${v.toFixed(0)} ms ${yes(v < 25)}`;
  });
  target("saturation at least 0.8x the baseline, 0 errors", (r) => {
    const { throughputRatio: v, errors } = medianFigures(r);
    return `${v.toFixed(2)}x ${yes(v >= 0.8 && errors === 0)}`;
  });
  // Decisions/s is the machine's busy CPU per second over its busy CPU per decision, and saturation
  // keeps the machine about as busy in both runs (the CPU table's busy shares): 0.8x the baseline's
  // decisions/s leaves the pipeline at most 1.25x the baseline's machine CPU per decision, a budget
  // every step shares with the SDK calls, the emulator, the load generator and Redis.
  target("  machine CPU per decision: pipeline / 0.8x budget", (r) => {
    const { machinePipeline, machineBaseline } = medianFigures(r);
    return `${machinePair(machinePipeline, 1.25 * machineBaseline)} ms`;
  });
  target("CPU beyond the SDK calls under 3 ms (saturation)", (r) => {
    const v = medianFigures(r).cpuBeyondSdk;
    return `${v.toFixed(1)} ms ${yes(v < 3)}`;
  });
  target("overload: p99 within 3x p50", (r) => {
    const l = r.overload.record.latency();
    return `${(l.p99 / l.p50).toFixed(1)}x ${yes(l.p99 <= 3 * l.p50)}`;
  });
  target("overload: 503 with Retry-After past the limit", (r) => {
    const { rejected, retryAfter } = r.overload.record;
    return `${rejected.length} ${yes(rejected.length > 0 && !retryAfter.has("none"))}`;
  });
  // The second-fastest model as a plain client sees it at the same load: the direct quorum.
  const quorumRounds = earlyQuorumRounds(api);
  const v = median(quorumRounds);
  const of = quorumRounds.length > 1 ? `, median of ${quorumRounds.length} rounds` : "";
  lines.push(`  ${"early quorum p50 within 15 ms of the 2nd-fastest model".padEnd(w)}${cell(`${signedMs(v)} ${yes(v <= 15)}`)}  (one process, vs the direct quorum${of})`);
  const stolen = Math.max(...results.flatMap((r) => rounds(r).map((f) => f.steal)));
  if (stolen > NOTABLE_STEAL) {
    lines.push(
      `NOTE: the hypervisor took up to ${percent(stolen)} of this machine's CPU during a timed run (the CPU tables' last rows). Every step of the`,
      "  pipeline waits for its turn on a CPU, so the product's ratios suffer more from it than one direct call: compare runs with little of it.",
    );
  }
  return lines.join("\n");
}

/** Early quorum's p50 minus the direct quorum's, in each round, the first round first. */
const earlyQuorumRounds = (api: ApiResult): number[] =>
  [api.earlyQuorum, ...api.earlyQuorum.moreRounds].map(({ on, directQuorum }) => on.latency().p50 - directQuorum.latency().p50);

/** Decisions with three large images: what the product adds to the calls that carry them. */
function imagesReport({ mb, runs }: ImagesResult, w: number): string[] {
  const product = runs.pipeline.record.latency();
  const direct = runs.baseline.record.latency();
  return [
    `Decisions with three images of ${mb} MB each, one at a time (N=${runs.pipeline.record.answered.length + runs.pipeline.record.errors} each; signed in, so the product also stores them as the user's image assets)`,
    row("", w, ["p50", "p95", "CPU/decision", "Redis CPU", "errors"], 14),
    row(
      "product: POST /api/ensembled-llm-categorical-decision",
      w,
      [ms(product.p50), ms(product.p95), ms(productCpu(runs)), ms(perDecision(runs.pipeline, (u) => u.redisCpuMs), 1), errorsOf(runs.pipeline.record)],
      14,
    ),
    row("direct: the same three SDK calls", w, [ms(direct.p50), ms(direct.p95), ms(baselineCpu(runs)), "", errorsOf(runs.baseline.record)], 14),
    row("product - direct", w, [signedMs(product.p50 - direct.p50), "", signedMs(cpuBeyondSdk(runs))], 14),
    "",
  ];
}

/**
 * The same decision with a bearer token and an API key, and the key check alone, as before; then
 * decisions with large images (measured last, printed here), then early quorum.
 */
export function apiReport(api: ApiResult, options: BenchOptions): string {
  const precise = (v: number) => `${v.toFixed(2)} ms`;
  const w = 56;
  const pair = (title: string, rows: [string, PhaseRecord][], perSecond: string, note: string, difference = "API key - bearer, at p50") => {
    const [a, b] = rows.map(([, record]) => record.latency());
    return [
      title,
      row("", w, ["p50", "p95", "p99", perSecond, "errors"]),
      ...rows.map(([name, record]) => {
        const l = record.latency();
        return row(name, w, [precise(l.p50), precise(l.p95), precise(l.p99), record.perSecond.toFixed(1), errorsOf(record)]);
      }),
      row(difference, w, [signedMs(b!.p50 - a!.p50)]) + `   ${note}`,
      "",
    ];
  };
  const { on, off, directQuorum, directAll, latencies } = api.earlyQuorum;
  const quorumRounds = earlyQuorumRounds(api);
  const sorted = Object.values(latencies).sort((a, b) => a - b);
  const quorum = (name: string, record: PhaseRecord, model: number, direct?: PhaseRecord) => {
    const l = record.latency();
    const vsDirect = direct ? signedMs(l.p50 - direct.latency().p50) : "";
    return row(name, w, [ms(l.p50, 1), ms(l.p95, 1), ms(l.p99, 1), signedMs(l.p50 - model), vsDirect, errorsOf(record)]);
  };
  return [
    ...pair(
      `The same decision with a bearer token (web endpoint) and with an API key (/v1/ensemble), interleaved (N=${options.n} each, concurrency=${options.c}, ${joining(options.c, options.rampMs)}, one process)`,
      [
        ["bearer: POST /api/ensembled-llm-categorical-decision", api.bearer],
        ["API key: POST /v1/ensemble (early_quorum: false)", api.keyed],
      ],
      "decisions/s",
      "(the key check: lookup, rate limit, quota, last use)",
    ),
    ...pair(
      `The key check alone: the same history page with each, one request at a time (N=${options.checks} each)`,
      [
        ["bearer: GET /api/decision-history?limit=1", api.bearerCheck],
        ["API key: GET /v1/decision-history?limit=1", api.keyCheck],
      ],
      "requests/s",
      "(target: under +1 ms)",
    ),
    ...pair(
      `The same kind of decision through /v1/ensemble and the OpenAI-compatible route, interleaved (N=${options.n} each, concurrency=${ADAPTER_CONCURRENCY}, the same API key)`,
      [
        ["POST /v1/ensemble", api.adapters.ensembleForChat],
        ["POST /v1/chat/completions (openai's wire format)", api.adapters.chat],
      ],
      "decisions/s",
      "(reading the schema and messages, the chat.completion shape)",
      "chat completions - /v1/ensemble, at p50",
    ),
    ...pair(
      `The same kind of decision through /v1/ensemble and the MCP server's decide tool (the MCP SDK's client), interleaved (N=${options.n} each, concurrency=${ADAPTER_CONCURRENCY})`,
      [
        ["POST /v1/ensemble", api.adapters.ensembleForMcp],
        ["MCP tools/call decide (POST /mcp)", api.adapters.mcp],
      ],
      "decisions/s",
      "(JSON-RPC, a server per request)",
      "MCP decide - /v1/ensemble, at p50",
    ),
    ...(api.images ? imagesReport(api.images, w) : []),
    `Early quorum: /v1/ensemble with ${Object.entries(latencies)
      .map(([id, latency]) => `${id} at ${latency} ms`)
      .join(", ")}, all answering alike (N=${options.earlyQuorum.n} each, concurrency=${options.c}, ${joining(options.c, options.rampMs)})`,
    row("", w, ["p50", "p95", "p99", "p50 - model", "vs direct", "errors"]),
    quorum(`early_quorum: true (model: the 2nd-fastest, ${sorted[1]} ms)`, on, sorted[1]!, directQuorum),
    quorum(`direct quorum: answered when two calls agree`, directQuorum, sorted[1]!),
    quorum(`early_quorum: false (model: the slowest, ${sorted[2]} ms)`, off, sorted[2]!, directAll),
    quorum(`direct: all three calls (Promise.all)`, directAll, sorted[2]!),
    `  target: early quorum p50 within 15 ms of the second-fastest model, as the direct quorum (same questions, same`,
    `  concurrency, same SDK clients) answers it: "vs direct" of the first row. "p50 - model" adds what the SDK calls,`,
    `  the emulator and the closed loop's load of ${options.c} users cost the direct client too.`,
    ...(quorumRounds.length > 1
      ? [`  "vs direct" of early_quorum: true in each of ${quorumRounds.length} rounds: ${quorumRounds.map(signedMs).join(", ")}; the target uses the median.`]
      : []),
    "",
  ].join("\n");
}
