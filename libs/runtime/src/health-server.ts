import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { metricsText, registry } from "@sd/telemetry";

/** A readiness probe must answer, not hang with the dependency it checks: past this it says "unavailable". */
export const READY_TIMEOUT_MS = 1000;

/** What a readiness check found short of a failure: a reason to say "degraded" (null or absent: all well). */
export interface Readiness {
  degraded?: string | null;
}

/**
 * Runs a readiness check bounded by READY_TIMEOUT_MS: resolves with what it found if the
 * dependencies answered in time, rejects with what failed (or that nothing answered) otherwise.
 */
async function checkReady(ready: () => Promise<Readiness | void>, timeoutMs = READY_TIMEOUT_MS): Promise<Readiness | void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`dependencies did not answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([ready(), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The /ready answer (never rejects): 503 with what failed, else 200, "degraded" with its reason when
 * there is one. Degraded stays 200 on purpose: the damage is already set aside and the process serves
 * well, and taking the only replica out of a load balancer would turn a warning into an outage.
 */
export async function readyAnswer(ready: () => Promise<Readiness | void>): Promise<{ status: number; body: Record<string, string> }> {
  let readiness: Readiness | void;
  try {
    readiness = await checkReady(ready);
  } catch (error) {
    return { status: 503, body: { status: "unavailable", detail: (error as Error).message } };
  }
  const degraded = readiness?.degraded;
  return degraded ? { status: 200, body: { status: "degraded", detail: degraded } } : { status: 200, body: { status: "ready" } };
}

export interface HealthServerOptions {
  /** Reads what is sampled only when scraped (the gateway's queue depths) before /metrics answers. */
  beforeMetrics?: () => Promise<void>;
}

/**
 * /health (process up), /ready (dependencies reachable) and /metrics, for Kubernetes probes and
 * Prometheus: on HEALTH_PORT for processes without an HTTP API of their own (provider workers,
 * aggregator), on METRICS_PORT beside the gateway's public port, which does not serve /metrics.
 */
export async function startHealthServer(
  port: number,
  ready: () => Promise<Readiness | void>,
  host = "0.0.0.0",
  { beforeMetrics }: HealthServerOptions = {},
): Promise<Server> {
  const server = createServer((req, res) => {
    const send = (status: number, body: string, type = "application/json") => {
      res.writeHead(status, { "content-type": type });
      res.end(body);
    };
    if (req.url === "/health") return send(200, JSON.stringify({ status: "ok" }));
    if (req.url === "/ready") {
      void readyAnswer(ready).then(({ status, body }) => send(status, JSON.stringify(body)));
      return;
    }
    if (req.url === "/metrics") {
      Promise.resolve(beforeMetrics?.())
        .then(() => metricsText())
        .then((text) => send(200, text, registry.contentType), () => send(500, "metrics failed", "text/plain"));
      return;
    }
    send(404, JSON.stringify({ detail: "Not found" }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  return server;
}

/** The URL a server listening on `host` answers at (IPv6 addresses in brackets). */
export function serverUrl(server: Server, host: string): string {
  const { port } = server.address() as AddressInfo;
  return `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
}

export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}
