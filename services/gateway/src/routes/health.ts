import type { Router } from "express";
import { ENDPOINTS } from "@sd/contracts/endpoints";
import type { QueueInspector } from "@sd/queue";
import { readyAnswer, type Readiness } from "@sd/runtime";
import { queueDepth } from "@sd/telemetry";
import { EndpointRouter } from "../http/endpoint-router";
import { HttpError } from "../http/errors";

/**
 * /health: the process is up. /ready: Redis and the store answer, within a second, and the store
 * can write ("degraded" with journal damage to acknowledge, see `readyAnswer`). /metrics is served
 * on METRICS_PORT (see `startGateway`), not on this public port.
 */
export function healthRoutes(ready: () => Promise<Readiness | void>): Router {
  const { router } = new EndpointRouter("")
    .mount(ENDPOINTS.health, { handler: () => ({ status: 200, body: { status: "ok" as const } }) })
    .mount(ENDPOINTS.ready, {
      handler: async ({ res }) => {
        // 503 answers carry the same shape, so the handler writes them itself.
        const { status, body } = await readyAnswer(ready);
        res.status(status).json(body);
      },
    });
  // The JSON 404 of the API, not the web app's not-found page, for a scraper pointed at the wrong port.
  router.get("/metrics", (_req, _res, next) => next(new HttpError(404, "Not found")));
  return router;
}

/** Sets sd_queue_jobs from Redis just before a scrape; a Redis that does not answer leaves the last values. */
export async function recordQueueDepths(queues: QueueInspector, deployment: string): Promise<void> {
  const counts = await queues.counts().catch(() => null);
  for (const [queue, states] of Object.entries(counts ?? {})) {
    for (const [state, count] of Object.entries(states)) queueDepth.set({ deployment, queue, state }, count);
  }
}
