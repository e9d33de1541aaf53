import { randomUUID } from "node:crypto";
import { MESSAGES } from "@sd/contracts";
import type { Emulator, EmulatorResponse, EmulatorVendor } from "@sd/provider-emulator";
import { DecisionFlow, createRedis } from "@sd/queue";
import { BigImages } from "./faults/big-images";
import { DRILL_CATEGORIES, longestWait, sendDecisions, statusCounts, type DrillOutcome } from "./faults/drill-decisions";
import { callsReceived, decisionsAsked } from "./faults/emulator-waits";
import { faultEnv, faultTiming } from "./faults/fault-env";
import type { FaultRow, MemoryRow } from "./faults/fault-row";
import { Fleet, workersStarted } from "./faults/fleet";
import { forkedWorkers, orphansOf, workerReadyOtherThan } from "./forked-workers";
import { freshConnectionRequest, stopWithin } from "./faults/process-control";
import { queuedDecisions } from "./faults/queued-decisions";
import { StoreAudit } from "./faults/store-audit";

/**
 * The fault drills of issue 11 on real processes: each starts its own deployment (service
 * processes on a private redis-server, which some drills crash or restart), puts `size` decisions in flight,
 * injects one fault, and reports what became of the decisions. faults.test.ts runs them small and
 * asserts the rows; `npm run chaos` runs them at 1,000 decisions and prints the table.
 */

export { faultTable, memoryTable, type FaultRow, type MemoryRow } from "./faults/fault-row";

/** What every drill needs: a provider emulator that records calls (to know when decisions are in flight). */
export interface DrillContext {
  emulator: Emulator;
}

const PROVIDER_COUNT = 3;
const PUBLIC = "/api/ensembled-llm-categorical-decision-public";
const drillTag = (name: string) => `${name}-${randomUUID().slice(0, 8)}`;
const answerYes = (emulator: Emulator, tag: string, latencyMs = 0) =>
  emulator.addRules({ match: { question_contains: tag }, latency_ms: latencyMs, respond: { kind: "answer", category: DRILL_CATEGORIES[0] } });
/** Time for a drained or crashed deployment to finish its work and exit once asked to. */
const exitGraceMs = (size: number) => faultTiming(size).decisionTimeoutMs + 10_000;

/** Decisions sent but never stored. */
const notStored = (outcomes: readonly DrillOutcome[], audit: StoreAudit) => outcomes.filter((o) => audit.timesStored(o.question) === 0).length;

/**
 * What every drill row measures of its decisions: lost, doubled, the longest wait, the answers by
 * status and the stored decisions short of a vote (`voters`: the models that should have voted).
 */
const measured = (outcomes: readonly DrillOutcome[], audit: StoreAudit, voters = PROVIDER_COUNT) => ({
  decisions: outcomes.length,
  lost: notStored(outcomes, audit),
  doubled: audit.doubled(voters),
  maxWaitMs: longestWait(outcomes),
  statuses: statusCounts(outcomes),
  shortOfVotes: audit.shortOfVotes(voters),
});

/** Decisions whose client was not answered 200, though they were stored (the client may send it again). */
const storedButNotAnswered = (outcomes: readonly DrillOutcome[], audit: StoreAudit) =>
  outcomes.filter((o) => o.status !== 200 && audit.timesStored(o.question) > 0).length;

/**
 * a. A provider-worker process is SIGKILLed while it holds vote jobs (the gateway and the aggregator
 * run in another process); a new worker takes over. Every decision is answered 200 and stored once,
 * each vote counted once although the killed worker's jobs are asked again.
 */
export async function workerKilledMidJob({ emulator }: DrillContext, size: number): Promise<FaultRow> {
  const tag = drillTag("worker-kill");
  const fleet = new Fleet();
  try {
    const server = await fleet.redis();
    // The product's default concurrency: when the worker dies, some votes are done, some held, some still queued.
    const env = faultEnv(emulator.url, size, { REDIS_URL: server.url, WORKER_CONCURRENCY: "16" });
    answerYes(emulator, tag, 300);
    const gateway = fleet.start("all-in-one", { ...env, ROLES: "gateway,aggregator" });
    const first = fleet.start("provider-worker", env);
    const [url] = await Promise.all([gateway.gatewayUrl(), workersStarted(first)]);
    const answers = sendDecisions(url, tag, size);
    // A third of the way through: the worker holds jobs whose calls are under way.
    await callsReceived(emulator, tag, size, faultTiming(size).decisionTimeoutMs);
    await first.stop("SIGKILL");
    fleet.start("provider-worker", env);
    const outcomes = await Promise.all(answers);
    const exitCode = await stopWithin(gateway, exitGraceMs(size));
    const audit = await StoreAudit.read(env.DATA_DIR!, tag);
    const calls = emulator.calls().filter((c) => c.prompt_text.includes(tag)).length;
    return {
      scenario: "a. worker SIGKILLed mid-job, replaced",
      ...measured(outcomes, audit),
      boundMs: faultTiming(size).decisionTimeoutMs,
      exitCode,
      note: `${calls - size * PROVIDER_COUNT} votes asked again after the kill`,
    };
  } finally {
    await fleet.close();
  }
}

/**
 * b. The all-in-one process is SIGKILLed with `size` decisions in flight (its clients see the
 * connection drop) and started again on the same DATA_DIR and QUEUE_PREFIX: every decision it had
 * accepted is completed and stored once. The wait is from each request to its decision's completion.
 * The worker process it had forked finishes its calls and exits by itself (`orphans` counts any left).
 */
export async function allInOneKilled({ emulator }: DrillContext, size: number): Promise<FaultRow> {
  const tag = drillTag("aio-kill");
  const timing = faultTiming(size);
  const fleet = new Fleet();
  const server = await fleet.redis();
  const env = faultEnv(emulator.url, size, { REDIS_URL: server.url });
  const redis = createRedis(env.REDIS_URL!, "fault-drill");
  const flow = new DecisionFlow(redis, env.QUEUE_PREFIX!, 3);
  try {
    answerYes(emulator, tag, 1000);
    const first = fleet.start("all-in-one", env);
    const answers = sendDecisions(await first.gatewayUrl(), tag, size);
    const workers = forkedWorkers(first);
    // Every decision queued and being voted on: all `size` are in flight.
    await decisionsAsked(emulator, tag, answers, timing.decisionTimeoutMs);
    await first.stop("SIGKILL");
    const outcomes = await Promise.all(answers);
    // A worker left alone drains within its calls' timeout plus 5 s (20 s here); this waits past that.
    const orphans = await orphansOf(first, workers, timing.decisionTimeoutMs);

    // Listen for each accepted decision's completion before the restart completes any.
    await flow.ready();
    const accepted = await queuedDecisions(redis, env.QUEUE_PREFIX!, tag);
    const sentAt = new Map(outcomes.map((o) => [o.question, o.sentAt]));
    const completions = [...accepted].map(([decisionId, question]) =>
      flow.waitForDecision(decisionId, timing.decisionTimeoutMs * 2).then(
        () => performance.now() - sentAt.get(question)!,
        () => null,
      ),
    );
    const second = fleet.start("all-in-one", env);
    const waits = await Promise.all(completions);
    const exitCode = await stopWithin(second, exitGraceMs(size));
    const audit = await StoreAudit.read(env.DATA_DIR!, tag);
    return {
      scenario: "b. all-in-one SIGKILLed, restarted",
      ...measured(outcomes, audit),
      // The clients' connections dropped: the wait is until each decision was completed.
      maxWaitMs: Math.round(Math.max(0, ...waits.map((w) => w ?? 0))),
      boundMs: null,
      exitCode,
      orphans: orphans.length,
      note:
        `${accepted.size} flows found in Redis after the kill; ${waits.filter((w) => w === null).length} never completed` +
        `; ${workers.length} forked workers, ${orphans.length} left running`,
    };
  } finally {
    await flow.close();
    redis.disconnect();
    await fleet.close();
  }
}

/**
 * h. `npm start`'s shape (the gateway and aggregator in one process, which forks its provider-worker
 * process): the forked worker is SIGKILLed while it holds vote jobs. Its parent restarts it, the
 * new one takes the killed one's jobs back once their locks expire (BullMQ's stalled-job check),
 * and every decision is answered 200 and stored once, each vote counted once.
 */
export async function forkedWorkerKilled({ emulator }: DrillContext, size: number): Promise<FaultRow> {
  const tag = drillTag("forked-kill");
  const timing = faultTiming(size);
  const fleet = new Fleet();
  try {
    const server = await fleet.redis();
    // As drill a: when the worker dies some votes are done, some held, some still queued (faultEnv
    // admits every decision, though the in-flight limit would follow these few slots).
    const env = faultEnv(emulator.url, size, { REDIS_URL: server.url, WORKER_CONCURRENCY: "16" });
    answerYes(emulator, tag, 300);
    const service = fleet.start("all-in-one", env);
    const url = await service.gatewayUrl();
    const [killed] = forkedWorkers(service);
    const answers = sendDecisions(url, tag, size);
    await callsReceived(emulator, tag, size, timing.decisionTimeoutMs);
    const killedAt = performance.now();
    process.kill(killed!.pid, "SIGKILL");
    const restarted = await workerReadyOtherThan(service, [killed!.pid]);
    const restartMs = performance.now() - killedAt;
    const outcomes = await Promise.all(answers);
    const exitCode = await stopWithin(service, exitGraceMs(size));
    const audit = await StoreAudit.read(env.DATA_DIR!, tag);
    const calls = emulator.calls().filter((c) => c.prompt_text.includes(tag)).length;
    return {
      scenario: "h. forked worker SIGKILLed, restarted by its parent",
      ...measured(outcomes, audit),
      boundMs: timing.decisionTimeoutMs,
      exitCode,
      note: `${restarted.process} ready again ${(restartMs / 1000).toFixed(1)} s after the kill; ${calls - size * PROVIDER_COUNT} votes asked again`,
    };
  } finally {
    await fleet.close();
  }
}

/**
 * c and d. A private Redis is SIGKILLed and restarted on its port while decisions are in flight:
 * half of them answered before the crash, half still waiting for slow models. With AOF (c) every
 * decision finishes 200 and is stored once. Without persistence (d) the flows are gone: each waiting
 * client is told with a 503 `decisionLost` soon after the gateway reconnects, none waits past
 * DECISION_TIMEOUT_MS. Either way a new decision afterwards answers 200, with no product restart.
 */
export async function redisRestarted({ emulator }: DrillContext, size: number, appendOnly: boolean): Promise<FaultRow> {
  const tag = drillTag(appendOnly ? "redis-aof" : "redis-volatile");
  const [fastTag, slowTag] = [`${tag}/fast`, `${tag}/slow`];
  const [fastCount, slowCount] = [Math.floor(size / 2), size - Math.floor(size / 2)];
  const timing = faultTiming(size);
  const fleet = new Fleet();
  try {
    const server = await fleet.redis({ appendOnly });
    const env = faultEnv(emulator.url, size, { REDIS_URL: server.url });
    answerYes(emulator, fastTag);
    // Slow enough that the fast half is answered, and the Redis crash over, while these still wait
    // (with seconds to spare on a loaded machine: a slow one answered before the crash proves nothing).
    answerYes(emulator, slowTag, 5000 + size * 5);
    answerYes(emulator, tag);
    const service = fleet.start("all-in-one", env);
    const url = await service.gatewayUrl();
    const slow = sendDecisions(url, slowTag, slowCount);
    const fast = await Promise.all(sendDecisions(url, fastTag, fastCount));
    await decisionsAsked(emulator, slowTag, slow, timing.decisionTimeoutMs);
    await server.restart("SIGKILL");
    const outcomes = [...fast, ...(await Promise.all(slow))];
    const [after] = await Promise.all(sendDecisions(url, `${tag}/after`, 1));
    const exitCode = await stopWithin(service, exitGraceMs(size));
    const audit = await StoreAudit.read(env.DATA_DIR!, tag);
    const toldLost = (o: DrillOutcome) => o.status === 503 && o.detail === MESSAGES.decisionLost;
    const told = outcomes.filter(toldLost).length;
    return {
      scenario: appendOnly ? "c. Redis (AOF always) SIGKILLed, restarted" : "d. Redis (no persistence) SIGKILLed, restarted",
      ...measured(outcomes, audit),
      // Without persistence a decision is lost when it was neither answered from the store nor told decisionLost.
      ...(appendOnly ? {} : { lost: outcomes.filter((o) => !(o.status === 200 && audit.timesStored(o.question) > 0) && !toldLost(o)).length }),
      boundMs: timing.decisionTimeoutMs,
      exitCode,
      afterStatus: after!.status,
      note:
        `${fastCount} answered before the crash; ${told} told decisionLost` +
        `; ${storedButNotAnswered(outcomes, audit)} stored though not answered 200; a new decision after: ${after!.status ?? after!.error}`,
    };
  } finally {
    await fleet.close();
  }
}

/** The ways one model fails in drill e, each scripted on the emulator. */
const FAILURES: { name: string; vendor: EmulatorVendor; provider: string; respond: EmulatorResponse }[] = [
  { name: "OpenAI 429, Retry-After 100 s", vendor: "openai", provider: "openai", respond: { kind: "error", status: 429, retry_after_s: 100 } },
  { name: "OpenAI 429, no Retry-After", vendor: "openai", provider: "openai", respond: { kind: "error", status: 429 } },
  { name: "Gemini 500 always", vendor: "gemini", provider: "gemini", respond: { kind: "error", status: 500 } },
  { name: "Claude hangs", vendor: "anthropic", provider: "claude", respond: { kind: "hang" } },
];
export const FAILURE_KINDS = FAILURES.length;
/** Time past the vote deadline for the last vote to land, the decision to be written and the answer to arrive. */
const AFTER_DEADLINE_MS = 5000;

/**
 * e. One model fails (each of FAILURES, `size` decisions spread over them, all at once): every
 * decision is made from the other two within the vote deadline plus a margin, the failing model's
 * vote recorded as an error. One row per failure.
 */
export async function oneModelFailing({ emulator }: DrillContext, size: number): Promise<FaultRow[]> {
  const perKind = Math.ceil(size / FAILURES.length);
  const deadlineMs = 3000 + size * 10;
  const base = drillTag("one-model");
  const kinds = FAILURES.map((failure, i) => ({ ...failure, tag: `${base}/${i}` }));
  const fleet = new Fleet();
  try {
    const server = await fleet.redis();
    // Each attempt may take 10 s: without the deadline a hanging model would take three of them
    // (30 s), far past the bound, which leaves room for a loaded machine.
    const env = faultEnv(emulator.url, size, {
      REDIS_URL: server.url,
      VOTE_DEADLINE_MS: String(deadlineMs),
      VOTE_ATTEMPTS: "3",
      OPENAI_TIMEOUT_MS: "10000",
      GEMINI_TIMEOUT_MS: "10000",
      CLAUDE_TIMEOUT_MS: "10000",
    });
    for (const kind of kinds) {
      emulator.addRules({ match: { vendor: kind.vendor, question_contains: kind.tag }, respond: kind.respond });
      answerYes(emulator, kind.tag);
    }
    const service = fleet.start("all-in-one", env);
    const url = await service.gatewayUrl();
    const outcomes = await Promise.all(kinds.map((kind) => Promise.all(sendDecisions(url, kind.tag, perKind))));
    const exitCode = await stopWithin(service, exitGraceMs(size));
    const audit = await StoreAudit.read(env.DATA_DIR!, base);
    return kinds.map((kind, i) => {
      const own = outcomes[i]!;
      const kindAudit = audit.only(`${kind.tag} #`);
      const withoutError = kindAudit.decisions().filter((d) => d.error_details[kind.provider] === undefined).length;
      return {
        scenario: `e. ${kind.name}`,
        ...measured(own, kindAudit, PROVIDER_COUNT - 1),
        boundMs: deadlineMs + AFTER_DEADLINE_MS,
        exitCode,
        note: `vote deadline ${(deadlineMs / 1000).toFixed(1)} s; ${withoutError} stored without the failing model's error`,
      };
    });
  } finally {
    await fleet.close();
  }
}

/**
 * f. SIGTERM to the all-in-one process with `size` accepted decisions waiting for slow models: it
 * refuses new connections, answers every accepted request 200 with its decision, then exits 0.
 */
export async function sigtermUnderLoad({ emulator }: DrillContext, size: number): Promise<FaultRow> {
  const tag = drillTag("sigterm");
  const timing = faultTiming(size);
  const fleet = new Fleet();
  try {
    const server = await fleet.redis();
    const env = faultEnv(emulator.url, size, { REDIS_URL: server.url });
    answerYes(emulator, tag, 1500);
    const service = fleet.start("all-in-one", env);
    const url = await service.gatewayUrl();
    const answers = sendDecisions(url, tag, size);
    await decisionsAsked(emulator, tag, answers, timing.decisionTimeoutMs);
    const exit = stopWithin(service, exitGraceMs(size));
    // Once draining, a new connection is refused (or, had it slipped in first, answered like the others).
    await service.waitForLog((l) => l.msg === "shutting down", "the drain began").catch(() => undefined);
    const lateQuestion = `Too late? ${tag}-late`;
    const lateRequest = await freshConnectionRequest(url, PUBLIC, { question: lateQuestion, categories: DRILL_CATEGORIES });
    const outcomes = await Promise.all(answers);
    const exitCode = await exit;
    const audit = await StoreAudit.read(env.DATA_DIR!, tag);
    return {
      scenario: "f. SIGTERM under load",
      ...measured(outcomes, audit),
      boundMs: timing.decisionTimeoutMs,
      exitCode,
      lateRequest,
      lateStored: audit.timesStored(lateQuestion) > 0,
      note: `exit code ${exitCode}; a new connection while draining: ${lateRequest} (its decision ${audit.timesStored(lateQuestion) > 0 ? "stored" : "not stored"})`,
    };
  } finally {
    await fleet.close();
  }
}

/**
 * g. Redis memory around `count` anonymous decisions with three ~9.9 MB images each, on a private
 * Redis (so every byte in it is the product's): used_memory before, at its peak, and once all are
 * answered, and the keys left. Images travel by reference and are deleted once a decision is
 * written, so "after" should be within a few MB of "before".
 */
export async function redisMemory({ emulator }: DrillContext, count: number, concurrency = 2): Promise<MemoryRow> {
  const tag = drillTag("memory");
  const fleet = new Fleet();
  try {
    const server = await fleet.redis();
    // Every model is sent the 30 MB too, so each decision is slow: the
    // wait is long enough that none times out, so "after" is measured with every decision finished.
    const env = faultEnv(emulator.url, count, { REDIS_URL: server.url, WORKER_CONCURRENCY: "16", DECISION_TIMEOUT_MS: "600000", VOTE_DEADLINE_MS: "300000" });
    answerYes(emulator, tag);
    const service = fleet.start("all-in-one", env);
    const url = await service.gatewayUrl();
    const images = new BigImages();
    const before = Number((await server.info("memory")).used_memory);
    const outcomes = await Promise.all(sendDecisions(url, tag, count, { concurrency, images: () => images.three() }));
    const memory = await server.info("memory");
    return {
      decisions: count,
      beforeBytes: before,
      // A fresh server: its peak since start is the peak of this drill.
      peakBytes: Number(memory.used_memory_peak),
      afterBytes: Number(memory.used_memory),
      keysLeft: await server.dbsize(),
      statuses: statusCounts(outcomes),
      note: [...new Set(outcomes.filter((o) => o.status !== 200).map((o) => `${o.status ?? o.error} ${o.detail ?? ""}`.trim()))].join("; "),
    };
  } finally {
    await fleet.close();
  }
}
