import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";

/** The parts of V8's .cpuprofile (what `node --cpu-prof` writes) that the benchmark reads. */
const CallFrameSchema = z.object({
  functionName: z.string(),
  url: z.string(),
  lineNumber: z.number(),
  columnNumber: z.number(),
});
const ProfileNodeSchema = z.looseObject({
  id: z.number(),
  callFrame: CallFrameSchema.loose(),
  hitCount: z.number().optional(),
  children: z.array(z.number()).optional(),
});
const CpuProfileSchema = z.looseObject({
  nodes: z.array(ProfileNodeSchema),
  /** Microseconds of the monotonic clock (the same for every process on the machine). */
  startTime: z.number(),
  endTime: z.number(),
  samples: z.array(z.number()).default([]),
  timeDeltas: z.array(z.number()).default([]),
});
export type CpuProfile = z.infer<typeof CpuProfileSchema>;
type CallFrame = z.infer<typeof CallFrameSchema>;

/** Frames that are not time the process spent working. */
const IDLE = new Set(["(idle)", "(root)"]);

export function readCpuProfile(path: string): CpuProfile {
  return CpuProfileSchema.parse(JSON.parse(readFileSync(path, "utf8")));
}

/** Now on the clock of .cpuprofile timestamps (CLOCK_MONOTONIC, µs), to mark a phase's window. */
export const profileClockUs = (): number => Number(process.hrtime.bigint() / 1000n);

/**
 * The samples of `profile` taken between `fromUs` and `toUs`: a profile of one phase, which still
 * opens in Chrome DevTools (hit counts recounted, per-line ticks dropped as they cover the whole run).
 */
function trimProfile(profile: CpuProfile, fromUs: number, toUs: number): CpuProfile {
  const samples: number[] = [];
  const timeDeltas: number[] = [];
  const hits = new Map<number, number>();
  let at = profile.startTime;
  let previous = fromUs;
  profile.samples.forEach((node, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (at < fromUs || at > toUs) return;
    samples.push(node);
    timeDeltas.push(at - previous);
    previous = at;
    hits.set(node, (hits.get(node) ?? 0) + 1);
  });
  const nodes = profile.nodes.map(({ positionTicks: _ticks, ...node }) => ({ ...node, hitCount: hits.get(node.id) ?? 0 }));
  return { ...profile, nodes, startTime: fromUs, endTime: Math.min(toUs, profile.endTime), samples, timeDeltas };
}

/** True when some sample is not idle (the tsx loader's thread, say, idles once modules are loaded). */
const worked = (profile: CpuProfile): boolean => {
  const idle = new Set(profile.nodes.filter((node) => IDLE.has(node.callFrame.functionName)).map((node) => node.id));
  return profile.samples.some((id) => !idle.has(id));
};

/**
 * Keeps the `phase` window of every profile node wrote into `rawDir` (CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile,
 * one per thread) as `<dir>/<name>.cpuprofile` for a main thread and `<name>-thread<n>.cpuprofile` for another thread
 * that worked in the window, where `names` maps the pid to a name; removes `rawDir`. Returns the files written.
 */
export function keepPhase(rawDir: string, dir: string, names: ReadonlyMap<number, string>, fromUs: number, toUs: number): string[] {
  const written: string[] = [];
  for (const file of readdirSync(rawDir).filter((f) => f.endsWith(".cpuprofile"))) {
    const [, , , pid, thread] = file.split(".").map(Number);
    const trimmed = trimProfile(readCpuProfile(join(rawDir, file)), fromUs, toUs);
    if (thread !== 0 && !worked(trimmed)) continue;
    const path = join(dir, `${names.get(pid!) ?? `pid-${pid}`}${thread === 0 ? "" : `-thread${thread}`}.cpuprofile`);
    writeFileSync(path, JSON.stringify(trimmed));
    written.push(path);
  }
  rmSync(rawDir, { recursive: true, force: true });
  return written;
}

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Where a frame's code lives: an npm package, one of our files, a Node internal module, or V8 itself. */
function placeOf(frame: CallFrame): { where: string; ours: boolean } {
  const url = frame.url.replace(/\?.*$/, "");
  if (url === "") return { where: frame.functionName.startsWith("(") ? frame.functionName : `(native) ${frame.functionName || "anonymous"}`, ours: false };
  if (url.startsWith("node:")) return { where: url, ours: false };
  const path = url.startsWith("file://") ? fileURLToPath(url) : url;
  const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (inPackage) return { where: inPackage[1]!, ours: false };
  return path.startsWith(ROOT) ? { where: relative(ROOT, path), ours: true } : { where: path, ours: false };
}

interface ProfileSummary {
  /** Sampled time, idle excluded, ms. */
  totalMs: number;
  /** Self time by package or file, ms, descending. */
  selfByPlace: [string, number][];
  /** Inclusive time of our own functions (a sample counts once per function however deep the recursion), ms, descending. */
  inclusiveOurs: [string, number][];
}

/** Self time per place and inclusive time per function of our own code, over one or more profiles. */
export function summarise(profiles: readonly CpuProfile[]): ProfileSummary {
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let totalUs = 0;
  for (const profile of profiles) {
    const byId = new Map(profile.nodes.map((node) => [node.id, node]));
    const parent = new Map<number, number>();
    for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
    profile.samples.forEach((id, i) => {
      // A sample stands for the time until the next one (the last for the profile's average interval).
      const next = profile.timeDeltas[i + 1];
      const us = next ?? (profile.endTime - profile.startTime) / Math.max(1, profile.samples.length);
      const node = byId.get(id);
      if (!node || IDLE.has(node.callFrame.functionName)) return;
      totalUs += us;
      const place = placeOf(node.callFrame).where;
      self.set(place, (self.get(place) ?? 0) + us);
      const seen = new Set<string>();
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
        const frame = byId.get(at)!.callFrame;
        const { where, ours } = placeOf(frame);
        if (!ours) continue;
        // tsx hands V8 each module transformed (mostly onto one line), so its line numbers are not
        // the source's: a function is its name and file (a file's anonymous functions counted together).
        const name = `${frame.functionName || "(anonymous functions)"}  ${where}`;
        if (seen.has(name)) continue;
        seen.add(name);
        inclusive.set(name, (inclusive.get(name) ?? 0) + us);
      }
    });
  }
  const descending = (map: Map<string, number>): [string, number][] =>
    [...map].map(([k, us]): [string, number] => [k, us / 1000]).sort((a, b) => b[1] - a[1]);
  return { totalMs: totalUs / 1000, selfByPlace: descending(self), inclusiveOurs: descending(inclusive) };
}
