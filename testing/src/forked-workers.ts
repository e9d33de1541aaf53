import { readFileSync } from "node:fs";
import type { LogLine, ServiceProcess } from "./processes";

/** A provider-worker process an all-in-one process forked, as its "child process ready" line names it. */
export interface ForkedWorker {
  process: string;
  pid: number;
}

const isReady = (line: LogLine) => line.msg === "child process ready" && typeof line.pid === "number";
const forkedWorker = (line: LogLine): ForkedWorker => ({ process: String(line.process), pid: line.pid as number });

/** The forked workers that have said they are ready so far, oldest first (the gateway listens only once all have). */
export function forkedWorkers(service: ServiceProcess): ForkedWorker[] {
  return service.lines.filter(isReady).map(forkedWorker);
}

/** Resolves with the first worker that became ready, past or future, other than the `known` pids. */
export async function workerReadyOtherThan(service: ServiceProcess, known: readonly number[]): Promise<ForkedWorker> {
  return forkedWorker(await service.waitForLog((line) => isReady(line) && !known.includes(line.pid as number), "a new forked worker was ready"));
}

/** Whether `pid` runs: it exists and is not a zombie (exited, its exit status not yet collected). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    // /proc/<pid>/stat: "pid (comm) state ..."; comm may hold spaces and parentheses.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return process.platform !== "linux";
  }
}

/**
 * The forked workers of `service` (which must have exited) still running once their shared
 * stdout closes or `boundMs` passes: orphans, when the parent was killed.
 */
export async function orphansOf(service: ServiceProcess, workers: readonly ForkedWorker[], boundMs: number): Promise<ForkedWorker[]> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, boundMs)));
  await Promise.race([service.outputClosed, late]);
  clearTimeout(timer);
  return workers.filter((worker) => isRunning(worker.pid));
}
