// Stands in for the all-in-one process in the data-dir lock tests: run as its own Node process
// (`node --import tsx hold-data-dir.ts <dataDir>`), it opens the embedded store in <dataDir>,
// says so on stdout and keeps it open until it is killed.
import { readlinkSync } from "node:fs";
import { openStore } from "../store";

/** One line on stdout per outcome, so the test can wait for it. */
export type HolderReport =
  | { event: "opened"; pid: number; hostPid: number }
  | { event: "refused"; message: string };

const report = (line: HolderReport) => process.stdout.write(`${JSON.stringify(line)}\n`);
const dataDir = process.argv[2];
if (!dataDir) throw new Error("usage: hold-data-dir.ts <dataDir>");

try {
  await openStore({ dataDir });
} catch (error) {
  report({ event: "refused", message: (error as Error).message });
  process.exit(3);
}
report({ event: "opened", pid: process.pid, hostPid: hostPid() });
setInterval(() => {}, 60_000);

/**
 * In a PID namespace of its own process.pid is 1; /proc/self (read through the host's /proc,
 * which the test does not remount) names the pid the test can signal.
 */
function hostPid(): number {
  try {
    return Number(readlinkSync("/proc/self"));
  } catch {
    return process.pid;
  }
}
