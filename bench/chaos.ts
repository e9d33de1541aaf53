/**
 * `npm run chaos`: the fault drills of faults.test.ts at a larger size on real processes, each on a
 * private redis-server (REDIS_SERVER_BIN, default /usr/bin/redis-server), plus Redis memory around
 * decisions with three ~9.9 MB images (slow on purpose: every model is sent them too). Exits 1 if a
 * decision was lost or doubled.
 *   npm run chaos                                   (1,000 decisions per drill; 100 image decisions)
 *   CHAOS_SIZE=50 CHAOS_MEMORY_DECISIONS=20 CHAOS_DRILLS=a,d,g npm run chaos
 *   CHAOS_DRILLS=i CHAOS_FLOOD_SECONDS=10 npm run chaos   (the compressed-body flood alone, shorter)
 *   CHAOS_DRILLS=j,k,l npm run chaos                (a batch of CHAOS_SIZE lines: its gateway killed, Redis killed, its gateway stopped, mid-batch)
 */
import { startEmulator } from "@sd/provider-emulator";
import { batchInterrupted } from "@sd/testing/faults/batch-drill";
import { compressedBodyFlood, floodProblems, floodTable, type BodyFloodRow } from "@sd/testing/faults/body-flood";
import {
  allInOneKilled,
  faultTable,
  forkedWorkerKilled,
  memoryTable,
  oneModelFailing,
  redisMemory,
  redisRestarted,
  sigtermUnderLoad,
  workerKilledMidJob,
  type DrillContext,
  type FaultRow,
  type MemoryRow,
} from "@sd/testing/fault-scenarios";

const SIZE = Number(process.env.CHAOS_SIZE ?? 1000);
/** Letters of the drills to run (e.g. `a,b,g`); all by default. */
const ONLY = new Set((process.env.CHAOS_DRILLS ?? "a,b,c,d,e,f,g,h,i,j,k,l").split(",").map((letter) => letter.trim()));
const MEMORY_DECISIONS = Number(process.env.CHAOS_MEMORY_DECISIONS ?? 100);
/** Drill i: how long and with how many clients the heavy bodies are sent. */
const FLOOD_SECONDS = Number(process.env.CHAOS_FLOOD_SECONDS ?? 30);
const FLOOD_CLIENTS = Number(process.env.CHAOS_FLOOD_CLIENTS ?? 40);
/** "After" more than this above "before" means images or jobs stayed in Redis. */
const MEMORY_SLACK_BYTES = 5 * 1024 * 1024;

const DRILLS: [string, (drill: DrillContext, size: number) => Promise<FaultRow | FaultRow[]>][] = [
  ["a. worker SIGKILLed mid-job", workerKilledMidJob],
  ["b. all-in-one SIGKILLed", allInOneKilled],
  ["c. Redis with AOF SIGKILLed", (drill, size) => redisRestarted(drill, size, true)],
  ["d. Redis without persistence SIGKILLed", (drill, size) => redisRestarted(drill, size, false)],
  ["e. one model failing", oneModelFailing],
  ["f. SIGTERM under load", sigtermUnderLoad],
  ["h. forked worker SIGKILLed", forkedWorkerKilled],
  // A batch of SIZE lines, interrupted a quarter of the way (issue 32).
  ["j. batch: gateway SIGKILLed mid-batch", (drill, size) => batchInterrupted(drill, size, "gateway-killed")],
  ["k. batch: Redis with AOF SIGKILLed mid-batch", (drill, size) => batchInterrupted(drill, size, "redis-restarted")],
  ["l. batch: gateway SIGTERMed mid-batch", (drill, size) => batchInterrupted(drill, size, "gateway-stopped")],
];

const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

async function main(): Promise<number> {
  const started = performance.now();
  // The drills wait for the models' calls to know when decisions are in flight: the call log is on.
  const emulator = await startEmulator({ recordCalls: true });
  const rows: FaultRow[] = [];
  const failures: string[] = [];
  let memory: MemoryRow | null = null;
  let flood: BodyFloodRow | null = null;
  try {
    for (const [name, run] of DRILLS.filter(([name]) => ONLY.has(name[0]!))) {
      emulator.reset();
      const drillStarted = performance.now();
      process.stderr.write(`${name}: ${SIZE} decisions...\n`);
      try {
        rows.push(...[await run({ emulator }, SIZE)].flat());
        process.stderr.write(`${name}: done in ${seconds(drillStarted)}\n`);
      } catch (error) {
        failures.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
        process.stderr.write(`${name}: FAILED after ${seconds(drillStarted)}: ${String(error)}\n`);
      }
    }
    if (ONLY.has("g")) {
      emulator.reset();
      const memoryStarted = performance.now();
      process.stderr.write(`g. Redis memory: ${MEMORY_DECISIONS} decisions with three ~9.9 MB images...\n`);
      try {
        memory = await redisMemory({ emulator }, MEMORY_DECISIONS);
        process.stderr.write(`g. Redis memory: done in ${seconds(memoryStarted)}\n`);
      } catch (error) {
        failures.push(`g. Redis memory: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    if (ONLY.has("i")) {
      emulator.reset();
      const floodStarted = performance.now();
      process.stderr.write(`i. compressed-body flood: ${FLOOD_CLIENTS} clients for ${FLOOD_SECONDS} s...\n`);
      try {
        flood = await compressedBodyFlood({ emulator }, { clients: FLOOD_CLIENTS, seconds: FLOOD_SECONDS });
        failures.push(...floodProblems(flood).map((problem) => `i. compressed-body flood: ${problem}`));
        process.stderr.write(`i. compressed-body flood: done in ${seconds(floodStarted)}\n`);
      } catch (error) {
        failures.push(`i. compressed-body flood: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  } finally {
    await emulator.close();
  }

  if (rows.length > 0) process.stdout.write(`\n${faultTable(rows)}\n\n`);
  if (memory) process.stdout.write(`${memoryTable(memory)}\n\n`);
  if (flood) process.stdout.write(`${floodTable(flood)}\n\n`);
  const broken = rows.filter((row) => row.lost > 0 || row.doubled > 0);
  for (const row of broken) failures.push(`${row.scenario}: ${row.lost} lost, ${row.doubled} doubled`);
  if (memory && memory.afterBytes - memory.beforeBytes > MEMORY_SLACK_BYTES) {
    process.stdout.write(`note: Redis kept ${((memory.afterBytes - memory.beforeBytes) / 1024 / 1024).toFixed(1)} MB more after the image decisions than before\n`);
  }
  process.stdout.write(`chaos: ${SIZE} decisions per drill, ${MEMORY_DECISIONS} image decisions, ${seconds(started)} in all\n`);
  for (const failure of failures) process.stdout.write(`FAIL ${failure}\n`);
  return failures.length > 0 ? 1 : 0;
}

// Interrupted: exit normally, so the drills' processes and Redis servers are killed on the way out.
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => process.exit(130));

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`chaos: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
