import { createBullBoard } from "@bull-board/api";
import { BullMQAdapter } from "@bull-board/api/bullMQAdapter";
import type { BeforeHookResult, HookContext, IServerAdapter } from "@bull-board/api/typings/app";
import { Queue, type JobType } from "bullmq";
import type { Redis } from "ioredis";
import { AGGREGATE_QUEUE, voteQueueName } from "@sd/contracts";
import { BATCH_QUEUE } from "./batch-queue";
import { WEBHOOK_QUEUE } from "./webhook-queue";

export type { IServerAdapter as QueueBoardServer } from "@bull-board/api/typings/app";

export interface QueueBoard {
  close(): Promise<void>;
}

export interface QueueBoardOptions {
  /**
   * Lets operators clean, retry and remove jobs. Off by default: one click on "Clean all" would
   * drop the votes of decisions in flight. Even when on, nothing of a decision in flight is touched.
   */
  writable?: boolean;
}

/** The states of a decision's aggregate job while the decision is in flight (not yet written, not failed). */
const IN_FLIGHT_STATES: JobType[] = ["active", "wait", "waiting-children", "delayed", "prioritized"];
/** Every state a job can be in: what emptying or obliterating a queue would touch. */
const ALL_STATES: JobType[] = [...IN_FLIGHT_STATES, "completed", "failed"];

/** The message of a refused board action: what was refused, and why. */
function inFlightRefusal(count: number, example: string): string {
  return `Refused: ${count} job(s) belong to decisions still in flight (for example ${example}). Their votes would be lost; try again once they have finished.`;
}

/**
 * Bull Board's view of every queue: the pipeline's (the aggregate queue and each provider's vote
 * queue), webhook deliveries and batch runs, attached to a server adapter the caller mounts and
 * guards (only libs/queue knows BullMQ; the gateway knows HTTP and who may see the board).
 * Read-only unless `writable`.
 */
export function attachQueueBoard(server: IServerAdapter, connection: Redis, prefix: string, providers: readonly string[], options: QueueBoardOptions = {}): QueueBoard {
  const writable = options.writable === true;
  const queues = [AGGREGATE_QUEUE, ...providers.map(voteQueueName), WEBHOOK_QUEUE, BATCH_QUEUE].map((name) => new Queue(name, { connection, prefix }));
  const byName = new Map(queues.map((queue) => [queue.name, queue]));
  createBullBoard({
    queues: queues.map((queue) => new BullMQAdapter(queue, { readOnlyMode: !writable })),
    serverAdapter: server,
    options: {
      uiConfig: { boardTitle: "Smart Decision queues" },
      ...(writable ? { handlerHooks: { before: (context: HookContext) => refuseInFlightChanges(context, byName) } } : {}),
    },
  });
  return {
    async close() {
      await Promise.all(queues.map((queue) => queue.close()));
    },
  };
}

/**
 * The jobs a board action would remove, retry or rewrite, or null for an action that changes no job
 * (reads, pausing a queue). Routes are Bull Board's API paths.
 */
async function jobsTouchedBy(context: HookContext, queue: Queue): Promise<string[] | null> {
  const params = context.request.params as { jobId?: string; queueStatus?: string };
  switch (context.route) {
    case "/api/queues/:queueName/clean/:queueStatus":
    case "/api/queues/:queueName/retry/:queueStatus":
      return queue.getRanges([params.queueStatus === "waiting" ? "wait" : (params.queueStatus as JobType)], 0, -1);
    case "/api/queues/:queueName/empty":
      return queue.getRanges(["wait", "delayed", "prioritized"], 0, -1);
    case "/api/queues/:queueName/obliterate":
      return queue.getRanges(ALL_STATES, 0, -1);
    case "/api/queues/:queueName/:jobId/clean":
    case "/api/queues/:queueName/:jobId/retry":
    case "/api/queues/:queueName/:jobId/update-data":
    case "/api/queues/:queueName/:jobId/remove-unprocessed-children":
      return params.jobId ? [params.jobId] : [];
    default:
      return null;
  }
}

/** A writable board's guard: an action that would touch a job of a decision in flight is a 409. */
async function refuseInFlightChanges(context: HookContext, queues: ReadonlyMap<string, Queue>): Promise<BeforeHookResult> {
  const queue = queues.get((context.request.params as { queueName?: string }).queueName ?? "");
  // Webhook and batch jobs belong to no decision's tally.
  if (!queue || queue.name === WEBHOOK_QUEUE || queue.name === BATCH_QUEUE) return;
  const touched = await jobsTouchedBy(context, queue);
  if (!touched || touched.length === 0) return;
  const inFlight = new Set(await queues.get(AGGREGATE_QUEUE)!.getRanges(IN_FLIGHT_STATES, 0, -1));
  const held = touched.filter((jobId) => inFlight.has(decisionIdOfJob(jobId)));
  if (held.length === 0) return;
  return { allow: false, status: 409, message: inFlightRefusal(held.length, held[0]!) };
}

const DECISION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/** The decision a job belongs to: the aggregate job's id is the decision id, a vote's starts with it. */
function decisionIdOfJob(jobId: string): string {
  return DECISION_ID.exec(jobId)?.[0] ?? jobId;
}
