import { AGGREGATE_QUEUE, DecisionOutcomeSchema, type AggregateJob, type DecisionOutcome, type DecisionResponse } from "@sd/contracts";
import type { Processor } from "bullmq";
import type { Redis } from "ioredis";
import { createWorker, type WorkerPool, type WorkerSettings } from "./workers";

/**
 * How a finished decision reaches the gateways waiting for it: one Redis pub/sub channel per
 * deployment, one message per finished decision. A message is `<decision id>\n<outcome JSON>`, so
 * a gateway that waits for no such decision drops it without parsing the response.
 *
 * Pub/sub keeps nothing: a gateway that was disconnected when an outcome was published missed it.
 * So a gateway always listens before it enqueues or looks, and after every reconnect it reads the
 * state of each decision it waits for from the queue (see `DecisionFlow`).
 */
const decisionOutcomesChannel = (prefix: string): string => `${prefix}:decision-outcomes`;

function encodeOutcome(outcome: DecisionOutcome): string {
  return `${outcome.decision_id}\n${JSON.stringify(outcome)}`;
}

/** The decision id of a message, read without parsing the rest. */
export function outcomeDecisionId(message: string): string {
  const end = message.indexOf("\n");
  return end < 0 ? "" : message.slice(0, end);
}

/** The outcome of a message, checked by the shared schema; null for a message that is not one. */
export function decodeOutcome(message: string): DecisionOutcome | null {
  const end = message.indexOf("\n");
  if (end < 0) return null;
  try {
    const parsed = DecisionOutcomeSchema.safeParse(JSON.parse(message.slice(end + 1)));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * The aggregate queue's worker: runs `processor` and tells the waiting gateways each decision's
 * outcome once BullMQ has recorded it (completed, or failed for good: attempts used up, or an
 * unrecoverable error). Published after the record, never before: a gateway that starts waiting
 * in between reads the job's state, and a state that is not final yet means the outcome is still
 * to come on the channel. A crash between the record and the publication loses only the message;
 * the gateways' periodic check of long waits reads the result from the job (see `DecisionFlow`).
 */
export function createAggregateWorker(
  processor: Processor<AggregateJob, DecisionResponse>,
  settings: WorkerSettings,
): WorkerPool<AggregateJob, DecisionResponse> {
  const channel = decisionOutcomesChannel(settings.prefix);
  const publish = (outcome: DecisionOutcome) => {
    settings.connection.publish(channel, encodeOutcome(outcome)).catch(() => undefined);
  };
  const worker = createWorker<AggregateJob, DecisionResponse>(AGGREGATE_QUEUE, processor, settings);
  worker.on("completed", (job, response) => publish({ decision_id: job.data.decision_id, ok: true, response }));
  worker.on("failed", (job, error) => {
    // BullMQ stamps `finishedOn` only when the job failed for good; an attempt it retries has none.
    if (job?.finishedOn) publish({ decision_id: job.data.decision_id, ok: false, reason: error.message });
  });
  return worker;
}

/** A connection subscribed to the outcomes channel, handing each message to `onMessage`. */
export async function subscribeToOutcomes(subscriber: Redis, prefix: string, onMessage: (message: string) => void): Promise<void> {
  const channel = decisionOutcomesChannel(prefix);
  subscriber.on("message", (from: string, message: string) => {
    if (from === channel) onMessage(message);
  });
  await subscriber.subscribe(channel);
}
