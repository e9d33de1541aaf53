/**
 * What the gateway's HTTP stack costs before any model call: CPU per request of the cheapest route,
 * a decision refused by validation, and a form refused by its rate limit. The stack runs as its own
 * process on its own Redis so its CPU and Redis commands are its alone; HTTP_BENCH_PROFILE=1 also
 * writes a CPU profile.
 *
 *   npx tsx bench/http-stack.ts
 *   HTTP_BENCH_N=5000 HTTP_BENCH_C=10 HTTP_BENCH_ROUNDS=3 npx tsx bench/http-stack.ts
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { Pool } from "undici";
import { startEmulator } from "@sd/provider-emulator";
import { testEnv } from "@sd/testing/env";
import { PrivateRedis } from "@sd/testing/private-redis";
import { ServiceProcess } from "@sd/testing/processes";
import { closedLoop, median, positiveInteger, processCpuMs } from "./kit";

const N = positiveInteger("HTTP_BENCH_N", 5000);
const C = positiveInteger("HTTP_BENCH_C", 10);
const ROUNDS = positiveInteger("HTTP_BENCH_ROUNDS", 3);
const WARMUP = Math.min(1000, N);
const PROFILE = process.env.HTTP_BENCH_PROFILE === "1";

/** CPU seconds a process has used (all its threads), from /proc/<pid>/stat. */
function cpuSeconds(pid: number): number {
  const ms = processCpuMs(pid);
  if (ms === null) throw new Error(`cannot read the CPU time of process ${pid} (it is gone, or this is not Linux)`);
  return ms / 1000;
}


/** Commands Redis has run since it started, all kinds together (scripts count once each). */
async function redisCommands(redis: Redis): Promise<number> {
  const info = await redis.info("commandstats");
  return [...info.matchAll(/calls=(\d+)/g)].reduce((sum, match) => sum + Number(match[1]), 0);
}

interface Scenario {
  name: string;
  expectedStatus: number;
  method: "GET" | "POST";
  path: string;
  body?: string;
}

const SCENARIOS: readonly Scenario[] = [
  { name: "GET /api/providers", expectedStatus: 200, method: "GET", path: "/api/providers" },
  {
    name: "POST decision, refused by validation",
    expectedStatus: 400,
    method: "POST",
    path: "/api/ensembled-llm-categorical-decision-public",
    // Only one category: the schema wants at least two, so the decision never starts.
    body: JSON.stringify({ question: "Should we approve the expense report for the team offsite?", categories: ["Approve"] }),
  },
  {
    name: "POST waitlist, past its per-IP limit",
    expectedStatus: 429,
    method: "POST",
    path: "/api/email-request",
    body: JSON.stringify({ email: "someone@example.com" }),
  },
];

async function main(): Promise<void> {
  const redisServer = await PrivateRedis.start();
  const emulator = await startEmulator();
  const redis = new Redis(redisServer.url);
  const profileDir = PROFILE ? mkdtempSync(join(tmpdir(), "sd-http-prof-")) : null;
  const vars = testEnv(emulator.url, {
    REDIS_URL: redisServer.url,
    LOG_LEVEL: "info",
    RATE_LIMIT_PER_MINUTE: "1000000000",
    RATE_LIMIT_MB_PER_MINUTE: "1000000",
    // The waitlist rows are all past the limit after the first one.
    FORMS_RATE_LIMIT_PER_HOUR: "1",
  });
  const stack = ServiceProcess.start("all-in-one", vars, profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []);
  let pool: Pool | null = null;
  try {
    const url = await stack.gatewayUrl();
    pool = new Pool(url, { connections: C, keepAliveTimeout: 30_000 });
    const client = pool;

    const send = async (scenario: Scenario): Promise<void> => {
      const { statusCode, body } = await client.request({
        method: scenario.method,
        path: scenario.path,
        headers: scenario.body === undefined ? {} : { "content-type": "application/json" },
        body: scenario.body,
      });
      await body.dump();
      if (statusCode !== scenario.expectedStatus) throw new Error(`${scenario.name}: ${statusCode}, expected ${scenario.expectedStatus}`);
    };
    const run = (scenario: Scenario, count: number): Promise<number> => closedLoop(count, C, () => send(scenario));

    // The first form of the hour is let through; every later one is past the limit.
    await send({ ...SCENARIOS[2]!, expectedStatus: 200 });
    for (const scenario of SCENARIOS) await run(scenario, WARMUP);
    // What the stack spends doing nothing (queue workers waiting on Redis, timers), taken off each row.
    const idleCpu0 = cpuSeconds(stack.pid);
    const idleCommands0 = await redisCommands(redis);
    const idleStarted = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const idleSeconds = (performance.now() - idleStarted) / 1000;
    const idleCpuPerS = (cpuSeconds(stack.pid) - idleCpu0) / idleSeconds;
    const idleCommandsPerS = ((await redisCommands(redis)) - idleCommands0 - 1) / idleSeconds;

    const rows = new Map<Scenario, { cpuMicros: number[]; commands: number[]; perSecond: number[] }>(SCENARIOS.map((s) => [s, { cpuMicros: [], commands: [], perSecond: [] }]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const scenario of SCENARIOS) {
        const cpu0 = cpuSeconds(stack.pid);
        const commands0 = await redisCommands(redis);
        const seconds = await run(scenario, N);
        const cpu = cpuSeconds(stack.pid) - cpu0 - idleCpuPerS * seconds;
        // Less the INFO call that read the count.
        const commands = (await redisCommands(redis)) - commands0 - 1 - idleCommandsPerS * seconds;
        const row = rows.get(scenario)!;
        row.cpuMicros.push((cpu / N) * 1e6);
        row.commands.push(commands / N);
        row.perSecond.push(N / seconds);
      }
    }

    process.stdout.write(`\nHTTP stack: ${N} requests per row and round, ${ROUNDS} rounds (medians), concurrency ${C}, all-in-one in its own process at LOG_LEVEL=info\n`);
    process.stdout.write(`(idle: ${(idleCpuPerS * 1000).toFixed(1)} ms CPU/s and ${idleCommandsPerS.toFixed(1)} Redis commands/s, taken off each row)\n\n`);
    process.stdout.write(`${"".padEnd(42)}${"CPU µs/request".padStart(16)}${"Redis cmds/request".padStart(20)}${"requests/s".padStart(12)}   rounds (CPU µs)\n`);
    for (const [scenario, row] of rows) {
      process.stdout.write(
        `${scenario.name.padEnd(42)}${median(row.cpuMicros).toFixed(0).padStart(16)}${median(row.commands).toFixed(2).padStart(20)}${median(row.perSecond).toFixed(0).padStart(12)}   ${row.cpuMicros.map((v) => v.toFixed(0)).join(" ")}\n`,
      );
    }
  } finally {
    await pool?.close();
    await stack.stop();
    redis.disconnect();
    await emulator.close();
    await redisServer.close();
    rmSync(vars.DATA_DIR!, { recursive: true, force: true });
  }
  if (profileDir) process.stdout.write(`\nCPU profile of the stack: ${profileDir}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
