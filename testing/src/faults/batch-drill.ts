import { randomUUID } from "node:crypto";
import { setTimeout as delay } from "node:timers/promises";
import { API_KEY_HEADER, ApiKeySchema, BatchSchema, type Batch } from "@sd/contracts";
import type { Emulator } from "@sd/provider-emulator";
import { openStore } from "@sd/store";
import { callApi } from "../history";
import { signInByMail } from "../sign-in";
import { SmtpCapture } from "../smtp-capture";
import { DRILL_CATEGORIES } from "./drill-decisions";
import { faultEnv } from "./fault-env";
import type { FaultRow } from "./fault-row";
import { Fleet } from "./fleet";
import type { ServiceProcess } from "../processes";
import { stopWithin } from "./process-control";
import { StoreAudit } from "./store-audit";

/**
 * Batch drills (issue 32): a batch of `size` lines runs on real processes (an all-in-one process
 * on a private redis-server) and, a quarter of the way through, the process running the gateway
 * is SIGKILLed and started again, or Redis (AOF, fsync always) is SIGKILLed and restarted. The
 * batch must still complete with every line decided exactly once: one stored decision per line,
 * the line's own decision id, and counts that add up to the total.
 */

/** SIGKILL of the all-in-one process, SIGTERM of it (a deploy: it drains and exits 0), or SIGKILL of Redis. */
export type BatchFault = "gateway-killed" | "gateway-stopped" | "redis-restarted";

const PROVIDER_COUNT = 3;
/** Batch lines are API decisions with early quorum on (as /v1): two agreeing votes of three decide. */
const QUORUM = 2;
/** Lines in flight at once: few, so the batch lasts long enough to be interrupted mid-way. */
const BATCH_CONCURRENCY = 8;
/** Each vote's latency: with BATCH_CONCURRENCY, about 200 lines take 5 s. */
const VOTE_LATENCY_MS = 200;

const SCENARIOS: Record<BatchFault, (size: number) => string> = {
  "gateway-killed": (size) => `j. batch of ${size}: gateway SIGKILLed mid-batch, restarted`,
  "redis-restarted": (size) => `k. batch of ${size}: Redis (AOF) SIGKILLed mid-batch, restarted`,
  "gateway-stopped": (size) => `l. batch of ${size}: gateway SIGTERMed mid-batch (a deploy), restarted`,
};

async function batchOf(url: string, key: string, id: string): Promise<Batch | null> {
  try {
    const response = await fetch(`${url}/v1/batches/${id}`, { headers: { [API_KEY_HEADER]: key } });
    // Redis away: the gateway answers 503 until it is back.
    if (response.status >= 500) return null;
    if (response.status !== 200) throw new Error(`GET /v1/batches/${id} answered ${response.status}: ${await response.text()}`);
    return BatchSchema.parse(await response.json());
  } catch (error) {
    // The gateway is down (killed, or Redis away): ask again. Any other answer is the drill's mistake.
    if (error instanceof Error && error.message.startsWith("GET ")) throw error;
    return null;
  }
}

/** Polls the batch every 250 ms until `done` says so; throws past `timeoutMs`. */
async function pollBatch(url: string, key: string, id: string, done: (batch: Batch) => boolean, timeoutMs: number): Promise<Batch> {
  const deadline = performance.now() + timeoutMs;
  let last: Batch | null = null;
  while (performance.now() < deadline) {
    last = (await batchOf(url, key, id)) ?? last;
    if (last && done(last)) return last;
    await delay(250);
  }
  throw new Error(`batch ${id} did not get there within ${timeoutMs} ms (last seen: ${JSON.stringify(last)})`);
}

/** A failed wait tells what the service logged meanwhile (its warnings, and whatever is not routine). */
async function withLogs<T>(service: ServiceProcess, waiting: Promise<T>): Promise<T> {
  try {
    return await waiting;
  } catch (error) {
    const warnings = service.lines.filter((line) => Number(line.level) >= 40 || !/^(GET|decision finished)/.test(String(line.msg))).slice(-30);
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n${warnings.map((line) => JSON.stringify(line)).join("\n")}\n${service.stderr.slice(-2000)}`, { cause: error });
  }
}

export async function batchInterrupted({ emulator }: { emulator: Emulator }, size: number, fault: BatchFault): Promise<FaultRow> {
  const tag = `batch-${fault}-${randomUUID().slice(0, 8)}`;
  const fleet = new Fleet();
  const smtp = await SmtpCapture.start();
  try {
    const server = await fleet.redis({ appendOnly: true });
    const env = faultEnv(emulator.url, size, {
      REDIS_URL: server.url,
      SMTP_URL: smtp.url,
      // Every poll of the batch is an API call: neither the quota nor the per-minute limit may cut them.
      API_MONTHLY_QUOTA: "1000000",
      API_KEY_RATE_LIMIT_PER_MINUTE: "1000000",
      BATCH_CONCURRENCY: String(BATCH_CONCURRENCY),
      // A killed gateway's batch is taken back within seconds (BullMQ's stalled-job check).
      BATCH_LOCK_MS: "2000",
    });
    emulator.addRules({ match: { question_contains: tag }, latency_ms: VOTE_LATENCY_MS, respond: { kind: "answer", category: DRILL_CATEGORIES[0] } });
    const first = fleet.start("all-in-one", env);
    const url = await first.gatewayUrl();
    const user = await signInByMail(url, smtp, `${tag}@example.com`);
    const created = await callApi(url, "/api/api-keys", user.tokens.access_token, { body: { name: "batch drill" } });
    if (created.status !== 201) throw new Error(`creating the key answered ${created.status}: ${created.text}`);
    const key = ApiKeySchema.parse(created.body).keyvalue!;
    const body = Array.from({ length: size }, (_, i) =>
      JSON.stringify({ custom_id: `line-${i + 1}`, prompt: `${tag} line ${i + 1}?`, valid_responses: [...DRILL_CATEGORIES] }),
    ).join("\n");
    const startedAt = performance.now();
    const posted = await fetch(`${url}/v1/batches`, { method: "POST", headers: { [API_KEY_HEADER]: key, "content-type": "application/jsonl" }, body });
    const postedText = await posted.text();
    if (posted.status !== 202) throw new Error(`POST /v1/batches answered ${posted.status}: ${postedText}`);
    const batchId = BatchSchema.parse(JSON.parse(postedText)).id;

    // A quarter of the way: some lines done, some running, most still pending.
    const before = await withLogs(first, pollBatch(url, key, batchId, (b) => b.request_counts.completed >= size / 4, 60_000 + size * 50));
    let service = first;
    let serviceUrl = url;
    let firstExit: number | null = null;
    if (fault === "gateway-killed" || fault === "gateway-stopped") {
      if (fault === "gateway-killed") await first.stop("SIGKILL");
      else firstExit = await stopWithin(first, 60_000);
      service = fleet.start("all-in-one", env);
      serviceUrl = await service.gatewayUrl();
    } else {
      await server.restart("SIGKILL");
    }
    const after = await withLogs(service, pollBatch(serviceUrl, key, batchId, (b) => b.status !== "in_progress", 120_000 + size * 200));
    const wallMs = performance.now() - startedAt;
    const exitCode = await stopWithin(service, 30_000);
    const reattached = service.lines.filter((line) => line.msg === "re-attaching running batch lines").reduce((sum, line) => sum + Number(line.lines), 0);

    const audit = await StoreAudit.read(env.DATA_DIR!, tag);
    const store = await openStore({ dataDir: env.DATA_DIR! });
    const statuses: Record<string, number> = {};
    let lost = 0;
    // A line stored twice is counted here already.
    const doubled = audit.doubled(PROVIDER_COUNT);
    let foreign = 0;
    try {
      const storedIds = audit.storedIds();
      for await (const line of store.batchLines.stream(batchId)) {
        statuses[line.status] = (statuses[line.status] ?? 0) + 1;
        const times = audit.timesStored(line.request!.question);
        if (times === 0) lost += 1;
        // The decision stored for the line is the line's own (the id fixed at acceptance).
        if (times > 0 && !storedIds.has(line.decision_id)) foreign += 1;
      }
    } finally {
      await store.close();
    }
    const counts = after.request_counts;
    return {
      scenario: SCENARIOS[fault](size),
      decisions: size,
      lost,
      doubled: doubled + foreign,
      maxWaitMs: Math.round(wallMs),
      boundMs: null,
      statuses,
      shortOfVotes: audit.shortOfVotes(QUORUM),
      // A stopped gateway's own exit (it must drain and exit 0 mid-batch); else the last one's.
      exitCode: fault === "gateway-stopped" ? firstExit : exitCode,
      note:
        `batch ${after.status}; counts ${counts.completed} completed + ${counts.failed} failed of ${counts.total}` +
        `; ${before.request_counts.completed} done before the fault; ${reattached} running lines re-attached after it; ${foreign} lines decided under another id`,
    };
  } finally {
    await fleet.close();
    await smtp.close();
  }
}
