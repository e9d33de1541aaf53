import { createServer, type Server } from "node:http";
import { metricsText, registry } from "@sd/telemetry";

/** A readiness probe must answer, not hang with the dependency it checks: past this it says "unavailable". */
export const READY_TIMEOUT_MS = 1000;

/**
 * Runs a readiness check bounded by READY_TIMEOUT_MS: resolves if the dependencies answered in
 * time, rejects with what failed (or that nothing answered) otherwise.
 */
export async function checkReady(ready: () => Promise<void>, timeoutMs = READY_TIMEOUT_MS): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`dependencies did not answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([ready(), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * /health (process up), /ready (dependencies reachable) and /metrics for processes without an
 * HTTP API of their own (provider workers, aggregator), for Kubernetes probes and Prometheus.
 */
export async function startHealthServer(port: number, ready: () => Promise<void>, host = "0.0.0.0"): Promise<Server> {
  const server = createServer((req, res) => {
    const send = (status: number, body: string, type = "application/json") => {
      res.writeHead(status, { "content-type": type });
      res.end(body);
    };
    if (req.url === "/health") return send(200, JSON.stringify({ status: "ok" }));
    if (req.url === "/ready") {
      checkReady(ready).then(
        () => send(200, JSON.stringify({ status: "ready" })),
        (error: unknown) => send(503, JSON.stringify({ status: "unavailable", detail: (error as Error).message })),
      );
      return;
    }
    if (req.url === "/metrics") {
      metricsText().then((text) => send(200, text, registry.contentType), () => send(500, "metrics failed", "text/plain"));
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

export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}
