import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import type { Redis } from "@sd/queue";

/** Who a measured process is, for the CPU table. */
export type ProcessGroup = "product" | "baseline" | "emulator";

export interface MeteredProcess {
  /** e.g. "all-in-one", "gateway", "provider-worker". */
  label: string;
  group: ProcessGroup;
  pid: number;
}

/** Clock ticks per second of /proc/<pid>/stat's utime and stime (100 on almost every Linux). */
const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** CPU time (user + system, every thread) a process has used so far, ms; null once it is gone or off Linux. */
export function processCpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name, which is in parentheses and may hold spaces: state is field 3.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = Number(fields[14 - 3]) + Number(fields[15 - 3]);
    return Number.isFinite(ticks) ? (ticks * 1000) / CLOCK_TICKS : null;
  } catch {
    return null;
  }
}

/** The parent process id in /proc/<pid>/stat (null once it is gone or off Linux). */
function parentOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[4 - 3]);
  } catch {
    return null;
  }
}

/**
 * `processes` and every process they started, and those started, with their group and their
 * label's "(forked)": a product that forks its workers spends CPU there too, which the parent's
 * /proc/<pid>/stat does not count until it reaps them. Empty of descendants off Linux.
 */
export function withDescendants(processes: readonly MeteredProcess[]): MeteredProcess[] {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return [...processes];
  }
  const parents = new Map(entries.filter((name) => /^\d+$/.test(name)).map((name) => [Number(name), parentOf(Number(name))]));
  const found: MeteredProcess[] = [...processes];
  for (let i = 0; i < found.length; i++) {
    const { pid, group, label } = found[i]!;
    for (const [child, parent] of parents) if (parent === pid) found.push({ pid: child, group, label: label.endsWith("(forked)") ? label : `${label} (forked)` });
  }
  return found;
}

/** Read and write system calls a process has made so far (sockets and files alike). */
export interface SystemCalls {
  reads: number;
  writes: number;
}

/**
 * A process's read and write system calls so far (/proc/<pid>/io: syscr, syscw); null once it is
 * gone, off Linux, or where another user's process may not be read. On a virtual machine a socket
 * write costs tens of microseconds (on loopback it also delivers the bytes), so their count is a
 * steadier figure of a change than the CPU time it moves.
 */
function processSystemCalls(pid: number): SystemCalls | null {
  try {
    const io = readFileSync(`/proc/${pid}/io`, "utf8");
    const reads = Number(/^syscr: (\d+)$/m.exec(io)?.[1]);
    const writes = Number(/^syscw: (\d+)$/m.exec(io)?.[1]);
    return Number.isFinite(reads) && Number.isFinite(writes) ? { reads, writes } : null;
  } catch {
    return null;
  }
}

/** Whether `pid` is a Redis server on this machine: one elsewhere (another host, a container) has an id that names nothing, or something else, here. */
function isLocalRedis(pid: number): boolean {
  try {
    return Number.isInteger(pid) && pid > 0 && readFileSync(`/proc/${pid}/comm`, "utf8").startsWith("redis-server");
  } catch {
    return false;
  }
}

/** `a` and `b` combined by `op`, call kind by call kind; null when either is unknown. */
const combineCalls = (a: SystemCalls | null | undefined, b: SystemCalls | null | undefined, op: (x: number, y: number) => number): SystemCalls | null =>
  a && b ? { reads: op(a.reads, b.reads), writes: op(a.writes, b.writes) } : null;
const callsBetween = (before: SystemCalls | null | undefined, after: SystemCalls | null | undefined) => combineCalls(after, before, (x, y) => x - y);

/** The whole machine's CPU time so far, in clock ticks summed over its cores (/proc/stat). */
interface HostTicks {
  total: number;
  /** Idle and waiting for I/O. */
  idle: number;
  /** Taken by the hypervisor for other guests while this machine had work to run. */
  steal: number;
}

/** Null off Linux. */
function hostTicks(): HostTicks | null {
  try {
    // "cpu  user nice system idle iowait irq softirq steal guest guest_nice": guest time is already in user.
    const fields = /^cpu\s+(.*)$/m.exec(readFileSync("/proc/stat", "utf8"))![1]!.split(/\s+/).map(Number);
    const [user, nice, system, idle, iowait, irq, softirq, steal] = fields as [number, number, number, number, number, number, number, number];
    return { total: user + nice + system + idle + iowait + irq + softirq + steal, idle: idle + iowait, steal };
  } catch {
    return null;
  }
}

/** How the whole machine's CPU time went over a phase, as shares of it (0..1, all cores). */
export interface HostShares {
  /** Running something: this benchmark's processes, Redis, anything else on the machine. */
  busy: number;
  /**
   * Taken by the hypervisor for other guests. On a shared host this moves from run to run, and it
   * stretches every wait in a pipeline of many steps more than a single call: runs with much of it
   * compare badly with quiet ones.
   */
  steal: number;
  /**
   * CPU time the machine spent running anything, ms summed over its cores: what a phase cost the
   * machine as a whole, the product's helpers (Redis, the emulator, the load generator) included.
   */
  busyMs: number;
}

/** One reading of every counter the tables use. */
interface UsageSnapshot {
  host: HostTicks | null;
  cpuMs: Map<number, number | null>;
  systemCalls: Map<number, SystemCalls | null>;
  loadGeneratorCpuMs: number;
  redisCpuMs: number;
  /** Redis's own system calls, when it runs on this machine (its process id is in INFO server). */
  redisSystemCalls: SystemCalls | null;
  /** Calls per Redis command name, from INFO commandstats. */
  commands: Map<string, number>;
  /** QUEUE_PREFIXes of other deployments' BullMQ connections on this Redis (their traffic is in the counts). */
  otherPrefixes: Set<string>;
}

/** The counters' change over a phase. */
export interface UsageDelta {
  /** CPU ms per process label, by group. */
  cpu: Record<ProcessGroup, Map<string, number>>;
  /** Read and write system calls per group (null: not readable here). */
  systemCalls: Record<ProcessGroup, SystemCalls | null>;
  loadGeneratorCpuMs: number;
  redisCpuMs: number;
  redisSystemCalls: SystemCalls | null;
  commands: Map<string, number>;
  otherPrefixes: Set<string>;
  /** Null off Linux. */
  host: HostShares | null;
}

/**
 * The commands the meter itself sends (one INFO and one CLIENT LIST per reading), left out of the
 * per-decision counts.
 */
const METER_COMMANDS = new Set(["info", "client|list"]);

/**
 * Reads CPU time of the benchmark's processes from /proc and Redis's own CPU time and command
 * counts from INFO, before and after each timed phase.
 */
export class UsageMeter {
  constructor(
    private readonly redis: Redis,
    /** The QUEUE_PREFIX of the product under test: BullMQ connections named with another are someone else's. */
    private readonly ourPrefixes: () => ReadonlySet<string>,
  ) {}

  async snapshot(processes: readonly MeteredProcess[]): Promise<UsageSnapshot> {
    const [info, clients] = await Promise.all([this.redis.info("server", "cpu", "commandstats"), this.redis.client("LIST") as Promise<string>]);
    const fields = new Map<string, string>();
    for (const line of info.split("\r\n")) {
      const colon = line.indexOf(":");
      if (colon > 0) fields.set(line.slice(0, colon), line.slice(colon + 1));
    }
    const commands = new Map<string, number>();
    for (const [key, value] of fields) {
      if (!key.startsWith("cmdstat_")) continue;
      const calls = /(?:^|,)calls=(\d+)/.exec(value)?.[1];
      if (calls !== undefined) commands.set(key.slice("cmdstat_".length), Number(calls));
    }
    const ours = this.ourPrefixes();
    const otherPrefixes = new Set<string>();
    for (const name of clients.matchAll(/ name=([^ ]*)/g)) {
      // BullMQ names its connections `<prefix>:<base64 queue name>`.
      const prefix = name[1]!.includes(":") ? name[1]!.split(":")[0]! : null;
      if (prefix && !ours.has(prefix)) otherPrefixes.add(prefix);
    }
    const usage = process.cpuUsage();
    const redisPid = Number(fields.get("process_id"));
    return {
      host: hostTicks(),
      cpuMs: new Map(processes.map((p) => [p.pid, processCpuMs(p.pid)])),
      systemCalls: new Map(processes.map((p) => [p.pid, processSystemCalls(p.pid)])),
      loadGeneratorCpuMs: (usage.user + usage.system) / 1000,
      redisCpuMs: 1000 * (Number(fields.get("used_cpu_sys") ?? 0) + Number(fields.get("used_cpu_user") ?? 0)),
      redisSystemCalls: isLocalRedis(redisPid) ? processSystemCalls(redisPid) : null,
      commands,
      otherPrefixes,
    };
  }
}

function usageBetween(before: UsageSnapshot, after: UsageSnapshot, processes: readonly MeteredProcess[]): UsageDelta {
  const cpu: UsageDelta["cpu"] = { product: new Map(), baseline: new Map(), emulator: new Map() };
  const systemCalls: UsageDelta["systemCalls"] = { product: { reads: 0, writes: 0 }, baseline: { reads: 0, writes: 0 }, emulator: { reads: 0, writes: 0 } };
  for (const p of processes) {
    const start = before.cpuMs.get(p.pid);
    const end = after.cpuMs.get(p.pid);
    if (start != null && end != null) cpu[p.group].set(p.label, (cpu[p.group].get(p.label) ?? 0) + end - start);
    const calls = callsBetween(before.systemCalls.get(p.pid), after.systemCalls.get(p.pid));
    systemCalls[p.group] = combineCalls(systemCalls[p.group], calls, (x, y) => x + y);
  }
  const commands = new Map<string, number>();
  for (const [name, calls] of after.commands) {
    if (METER_COMMANDS.has(name)) continue;
    const delta = calls - (before.commands.get(name) ?? 0);
    if (delta > 0) commands.set(name, delta);
  }
  return {
    cpu,
    systemCalls,
    loadGeneratorCpuMs: after.loadGeneratorCpuMs - before.loadGeneratorCpuMs,
    redisCpuMs: after.redisCpuMs - before.redisCpuMs,
    redisSystemCalls: callsBetween(before.redisSystemCalls, after.redisSystemCalls),
    commands,
    otherPrefixes: new Set([...before.otherPrefixes, ...after.otherPrefixes]),
    host: hostSharesBetween(before.host, after.host),
  };
}

function hostSharesBetween(before: HostTicks | null, after: HostTicks | null): HostShares | null {
  if (before === null || after === null || after.total <= before.total) return null;
  const total = after.total - before.total;
  const stolen = after.steal - before.steal;
  const busy = total - (after.idle - before.idle) - stolen;
  return { busy: busy / total, steal: stolen / total, busyMs: (busy * 1000) / CLOCK_TICKS };
}

/** Sum of a group's CPU ms over its processes. */
export const groupCpuMs = (delta: UsageDelta, group: ProcessGroup): number => [...delta.cpu[group].values()].reduce((a, b) => a + b, 0);

/**
 * Readings at two moments the caller picks, such as a window inside a longer run (`metered` reads
 * around a whole phase). A reading that fails is reported by `usage`, not as an unhandled rejection.
 */
export function meterWindow(meter: UsageMeter, processes: readonly MeteredProcess[]): { opened(): void; closed(): void; usage(): Promise<UsageDelta> } {
  const read = () => {
    const reading = meter.snapshot(processes);
    reading.catch(() => undefined);
    return reading;
  };
  let before: Promise<UsageSnapshot> | null = null;
  let after: Promise<UsageSnapshot> | null = null;
  return {
    opened: () => void (before = read()),
    closed: () => void (after = read()),
    async usage() {
      if (before === null || after === null) throw new Error("the metered window never opened and closed");
      return usageBetween(await before, await after, processes);
    },
  };
}

/** Runs `phase` between two readings. */
export async function metered<T>(meter: UsageMeter, processes: readonly MeteredProcess[], phase: () => Promise<T>): Promise<{ result: T; usage: UsageDelta }> {
  const before = await meter.snapshot(processes);
  const result = await phase();
  const after = await meter.snapshot(processes);
  return { result, usage: usageBetween(before, after, processes) };
}
