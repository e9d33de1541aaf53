import { readFileSync } from "node:fs";
import { Agent, request } from "node:http";
import type { Emulator } from "@sd/provider-emulator";
import { DRILL_CATEGORIES, drillQuestion } from "./drill-decisions";
import { testEnv } from "../env";
import { Fleet } from "./fleet";
import { compress, manySmallObjects, millionKeys } from "./heavy-bodies";

/**
 * i. Compressed-body flood: while `clients` clients send, in a loop, a 112 KB gzip body
 * that inflates to 44 MB of small objects and a 12 MB plain body of a million keys, to an unknown
 * path, to /v1/ensemble without a key and to the public decision route, normal decisions are timed
 * and the all-in-one process's memory sampled. The product passes when a decision takes at most
 * twice its unloaded time and the process grows by at most 300 MB. Every setting is the product's
 * default but the per-IP limits, raised (`FLOOD_OVERRIDES`, printed under the table), since every
 * client shares one address and would otherwise be answered 429 before any body is looked at.
 */

export interface BodyFloodRow {
  clients: number;
  seconds: number;
  /** Flood requests answered, by status ("none": the connection failed). */
  floodStatuses: Record<string, number>;
  /** Median latency of a normal decision before the flood (ms). */
  unloadedMs: number;
  /** During the flood: the median, the 90th percentile (what the bound is checked on) and the longest (ms; Infinity: not answered 200). */
  loadedMedianMs: number;
  loadedP90Ms: number;
  loadedMaxMs: number;
  /** Normal decisions during the flood, and how many were not answered 200. */
  decisions: number;
  failedDecisions: number;
  /** Resident memory of the all-in-one process before the flood and at its peak during it (bytes). */
  rssBeforeBytes: number;
  rssPeakBytes: number;
}

/** Of a test environment, only where the product runs (Redis, prefix, data dir, ports) and which models it calls: no tuning. */
function deploymentOnly(env: Record<string, string>): Record<string, string> {
  const where = new Set(["REDIS_URL", "QUEUE_PREFIX", "DATA_DIR", "PORT", "HOST", "HEALTH_PORT", "METRICS_PORT"]);
  return Object.fromEntries(Object.entries(env).filter(([name]) => where.has(name) || /_(API_KEY|BASE_URL)$/.test(name)));
}

export const FLOOD_BOUNDS = { latencyRatio: 2, rssGrowthBytes: 300 * 1024 * 1024 } as const;

/** The per-IP limits the drill raises; every other setting is the product's default. */
const FLOOD_OVERRIDES = { RATE_LIMIT_PER_MINUTE: "1000000", RATE_LIMIT_MB_PER_MINUTE: "100000000" } as const;

const PUBLIC = "/api/ensembled-llm-categorical-decision-public";
/** A model's answer time for the timed decisions, so their latency is a decision's and not only the gateway's overhead. */
const MODEL_LATENCY_MS = 250;
const UNLOADED_DECISIONS = 7;

function residentBytes(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) * 1024 : 0;
}

const percentile = (values: readonly number[], fraction: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.POSITIVE_INFINITY;
};
const median = (values: readonly number[]) => percentile(values, 0.5);

/** One flood request: the status, or "none" when the server closed the connection first (it may refuse unread). */
function sendRaw(agent: Agent, url: URL, path: string, body: Buffer, headers: Record<string, string>): Promise<string> {
  return new Promise((resolve) => {
    const req = request(
      { agent, host: url.hostname, port: url.port, path, method: "POST", headers: { "content-type": "application/json", "content-length": String(body.length), ...headers } },
      (res) => {
        res.resume();
        res.on("end", () => resolve(String(res.statusCode)));
        res.on("error", () => resolve(String(res.statusCode)));
      },
    );
    req.setTimeout(120_000, () => req.destroy(new Error("timed out")));
    req.on("error", () => resolve("none"));
    req.end(body);
  });
}

async function timedDecision(url: string, question: string): Promise<{ ok: boolean; ms: number }> {
  const started = performance.now();
  try {
    const response = await fetch(`${url}${PUBLIC}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ question, categories: DRILL_CATEGORIES }),
      signal: AbortSignal.timeout(120_000),
    });
    await response.arrayBuffer();
    return { ok: response.status === 200, ms: performance.now() - started };
  } catch {
    return { ok: false, ms: performance.now() - started };
  }
}

export async function compressedBodyFlood({ emulator }: { emulator: Emulator }, options: { clients?: number; seconds?: number } = {}): Promise<BodyFloodRow> {
  const clients = options.clients ?? 40;
  const seconds = options.seconds ?? 30;
  const tag = `body-flood-${Date.now().toString(36)}`;
  const fleet = new Fleet();
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  try {
    const server = await fleet.redis();
    // All clients share one address here: the per-IP limits would refuse the timed decisions too.
    const env = { ...deploymentOnly(testEnv(emulator.url)), REDIS_URL: server.url, ...FLOOD_OVERRIDES };
    emulator.addRules({ match: { question_contains: tag }, latency_ms: MODEL_LATENCY_MS, respond: { kind: "answer", category: DRILL_CATEGORIES[0] } });
    const product = fleet.start("all-in-one", env);
    const url = await product.gatewayUrl();

    const gzipped = compress(manySmallObjects(), "gzip");
    const manyKeys = millionKeys();
    const floods: [string, Buffer, Record<string, string>][] = [];
    for (const path of ["/nope", "/v1/ensemble", PUBLIC]) {
      floods.push([path, gzipped, { "content-encoding": "gzip" }], [path, manyKeys, {}]);
    }

    let asked = 0;
    const decide = () => timedDecision(url, drillQuestion(tag, asked++));
    // Warm up (first connections, compiled paths), then the unloaded figures.
    await decide();
    const unloaded: number[] = [];
    for (let i = 0; i < UNLOADED_DECISIONS; i++) unloaded.push((await decide()).ms);
    const rssBeforeBytes = residentBytes(product.pid);

    const target = new URL(url);
    const floodStatuses: Record<string, number> = {};
    const deadline = performance.now() + seconds * 1000;
    let rssPeakBytes = rssBeforeBytes;
    const sampler = setInterval(() => {
      rssPeakBytes = Math.max(rssPeakBytes, residentBytes(product.pid));
    }, 200);
    const flooder = async (client: number) => {
      for (let round = client; performance.now() < deadline; round++) {
        const [path, body, headers] = floods[round % floods.length]!;
        const status = await sendRaw(agent, target, path, body, headers);
        floodStatuses[status] = (floodStatuses[status] ?? 0) + 1;
      }
    };
    const flooding = Promise.all(Array.from({ length: clients }, (_, client) => flooder(client)));
    const loaded: { ok: boolean; ms: number }[] = [];
    while (performance.now() < deadline) loaded.push(await decide());
    await flooding;
    clearInterval(sampler);

    const waits = loaded.map((d) => (d.ok ? d.ms : Number.POSITIVE_INFINITY));
    return {
      clients,
      seconds,
      floodStatuses,
      unloadedMs: median(unloaded),
      loadedMedianMs: median(waits),
      loadedP90Ms: percentile(waits, 0.9),
      loadedMaxMs: percentile(waits, 1),
      decisions: loaded.length,
      failedDecisions: loaded.filter((d) => !d.ok).length,
      rssBeforeBytes,
      rssPeakBytes,
    };
  } finally {
    agent.destroy();
    await fleet.close();
  }
}

/** Why the row fails the issue's bounds, if it does. */
export function floodProblems(row: BodyFloodRow): string[] {
  const problems: string[] = [];
  if (row.loadedP90Ms > row.unloadedMs * FLOOD_BOUNDS.latencyRatio) {
    problems.push(`a decision took ${ms(row.loadedP90Ms)} (90th percentile) under the flood, over ${FLOOD_BOUNDS.latencyRatio}x its unloaded ${ms(row.unloadedMs)}`);
  }
  if (row.rssPeakBytes - row.rssBeforeBytes > FLOOD_BOUNDS.rssGrowthBytes) {
    problems.push(`the process grew by ${mb(row.rssPeakBytes - row.rssBeforeBytes)}, over ${mb(FLOOD_BOUNDS.rssGrowthBytes)}`);
  }
  if (row.failedDecisions > 0) problems.push(`${row.failedDecisions} of ${row.decisions} decisions were not answered 200`);
  return problems;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const ms = (value: number) => (Number.isFinite(value) ? `${Math.round(value)} ms` : "no answer");

export function floodTable(row: BodyFloodRow): string {
  const ratio = Number.isFinite(row.loadedP90Ms) ? `${(row.loadedP90Ms / row.unloadedMs).toFixed(2)}x` : "–";
  const statuses = Object.entries(row.floodStatuses)
    .map(([status, count]) => `${status}×${count}`)
    .join(", ");
  return [
    "| flood | decision unloaded | under flood: median / p90 / max | p90 ratio | decisions (not 200) | RSS before | peak | growth | flood answers |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---|",
    `| ${row.clients} clients, ${row.seconds} s | ${ms(row.unloadedMs)} | ${ms(row.loadedMedianMs)} / ${ms(row.loadedP90Ms)} / ${ms(row.loadedMaxMs)} | ${ratio} | ${row.decisions} (${row.failedDecisions}) | ${mb(row.rssBeforeBytes)} | ${mb(row.rssPeakBytes)} | ${mb(row.rssPeakBytes - row.rssBeforeBytes)} | ${statuses} |`,
    "",
    `Body limits at the product's defaults; raised for the one shared client address: ${Object.entries(FLOOD_OVERRIDES)
      .map(([name, value]) => `${name}=${value}`)
      .join(", ")}; every other setting at the product's default.`,
  ].join("\n");
}
