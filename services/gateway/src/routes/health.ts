import { Router } from "express";
import type { QueueInspector } from "@sd/queue";
import { checkReady } from "@sd/runtime";
import { metricsText, queueDepth, registry } from "@sd/telemetry";

/** /health: the process is up. /ready: Redis and the store answer, within a second. /metrics: Prometheus text. */
export function healthRoutes(ready: () => Promise<void>, queues: QueueInspector): Router {
  const router = Router();
  router.get("/health", (_req, res) => {
    res.json({ status: "ok" });
  });
  router.get("/ready", async (_req, res) => {
    try {
      await checkReady(ready);
      res.json({ status: "ready" });
    } catch (error) {
      res.status(503).json({ status: "unavailable", detail: (error as Error).message });
    }
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
