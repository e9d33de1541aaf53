import { Router } from "express";
import type { QueueInspector } from "@sd/queue";
import { readyAnswer, type Readiness } from "@sd/runtime";
import { metricsText, queueDepth, registry } from "@sd/telemetry";

/**
 * /health: the process is up. /ready: Redis and the store answer, within a second, and the store
 * can write ("degraded" with journal damage to acknowledge, see `readyAnswer`). /metrics: Prometheus text.
 */
export function healthRoutes(ready: () => Promise<Readiness | void>, queues: QueueInspector): Router {
  const router = Router();
  router.get("/health", (_req, res) => {
    res.json({ status: "ok" });
  });
  router.get("/ready", async (_req, res) => {
    const { status, body } = await readyAnswer(ready);
    res.status(status).json(body);
  });
  router.get("/metrics", async (_req, res) => {
    const counts = await queues.counts().catch(() => null);
    for (const [queue, states] of Object.entries(counts ?? {})) {
      for (const [state, count] of Object.entries(states)) queueDepth.set({ queue, state }, count);
    }
    res.type(registry.contentType).send(await metricsText());
  });
  return router;
}
