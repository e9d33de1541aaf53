/**
 * Where a CPU profile's time went: self time per npm package or source file (top 30), and the
 * inclusive time of our own functions (libs/, services/), over one or more .cpuprofile files
 * (e.g. the gateway, provider-worker and aggregator profiles of one `BENCH_PROFILE=1 npm run bench`
 * saturation phase, summed). Idle time is left out; percentages are of the profiled CPU time.
 *
 *   npx tsx bench/profile-summary.ts <file.cpuprofile | directory>... [--top 30]
 */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { readCpuProfile, summarise } from "./decisions/cpu-profile";

function profilePaths(args: readonly string[]): string[] {
  return args.flatMap((arg) =>
    statSync(arg).isDirectory()
      ? readdirSync(arg)
          .filter((f) => f.endsWith(".cpuprofile"))
          .sort()
          .map((f) => join(arg, f))
      : [arg],
  );
}

function main(argv: readonly string[]): void {
  const topAt = argv.indexOf("--top");
  const top = topAt >= 0 ? Number(argv[topAt + 1]) : 30;
  const paths = profilePaths(topAt < 0 ? argv : argv.filter((_, i) => i !== topAt && i !== topAt + 1));
  if (paths.length === 0 || !Number.isInteger(top) || top < 1) {
    process.stderr.write("usage: profile-summary.ts <file.cpuprofile | directory>... [--top 30]\n");
    process.exit(2);
  }
  const profiles = paths.map(readCpuProfile);
  const summary = summarise(profiles);
  const out: string[] = [];
  out.push(`${paths.length} profile(s): ${paths.join(", ")}`);
  out.push(`profiled CPU time (idle excluded): ${summary.totalMs.toFixed(0)} ms`, "");
  const table = (title: string, rows: [string, number][]) => {
    out.push(title, `${"ms".padStart(10)}${"%".padStart(8)}  where`);
    for (const [name, ms] of rows.slice(0, top)) {
      out.push(`${ms.toFixed(1).padStart(10)}${((100 * ms) / summary.totalMs).toFixed(1).padStart(7)}%  ${name}`);
    }
    out.push("");
  };
  table(`Self time by package / file (top ${top})`, summary.selfByPlace);
  table(`Inclusive time of our own functions (top ${top}; nested functions overlap)`, summary.inclusiveOurs);
  process.stdout.write(`${out.join("\n")}\n`);
}

main(process.argv.slice(2));
