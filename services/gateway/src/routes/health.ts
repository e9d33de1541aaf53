import type { Router } from "express";
import { ENDPOINTS } from "@sd/contracts/endpoints";
import type { QueueInspector } from "@sd/queue";
import { readyAnswer, type Readiness } from "@sd/runtime";
import { EndpointRouter } from "../http/endpoint-router";
import { routeLabel } from "../http/observability";
import { metricsText, queueDepth, registry } from "@sd/telemetry";

/**
 * /health: the process is up. /ready: Redis and the store answer, within a second, and the store
 * can write ("degraded" with journal damage to acknowledge, see `readyAnswer`). /metrics: Prometheus text.
 */
export function healthRoutes(ready: () => Promise<Readiness | void>, queues: QueueInspector): Router {
  const { router } = new EndpointRouter("")
    .mount(ENDPOINTS.health, { handler: () => ({ status: 200, body: { status: "ok" as const } }) })
    .mount(ENDPOINTS.ready, {
      handler: async ({ res }) => {
        // 503 answers carry the same shape, so the handler writes them itself.
        const { status, body } = await readyAnswer(ready);
        res.status(status).json(body);
      },
    });
  // Prometheus text, not a JSON endpoint.
  router.get("/metrics", routeLabel("/metrics"), async (_req, res) => {
    const counts = await queues.counts().catch(() => null);
    for (const [queue, states] of Object.entries(counts ?? {})) {
      for (const [state, count] of Object.entries(states)) queueDepth.set({ queue, state }, count);
    }
    res.type(registry.contentType).send(await metricsText());
  });
  return router;
}
