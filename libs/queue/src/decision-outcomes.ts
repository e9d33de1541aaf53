import { AGGREGATE_QUEUE, DecisionOutcomeSchema, type AggregateJob, type DecisionOutcome, type DecisionResponse } from "@sd/contracts";
import type { Redis } from "ioredis";
import { aggregateRun, type AggregateRun, type DecisionSteps } from "./decision-steps";
import { decisionOutcomesChannel } from "./queue-keys";
import { createWorker, type WorkerPool, type WorkerSettings } from "./workers";

/*
 * How a finished decision reaches the gateways waiting for it: one Redis pub/sub channel per
 * deployment (`decisionOutcomesChannel`), a message when the decision is written and another once
 * its job is recorded (see `createAggregateWorker`). A message is `<decision id>\n<outcome JSON>`,
 * so a gateway that waits for no such decision (or no longer: the first message answered it)
 * drops it without parsing the response.
 *
 * Pub/sub keeps nothing: a gateway that was disconnected when an outcome was published missed it.
 * So a gateway always listens before it enqueues or looks, and after every reconnect it reads the
 * state of each decision it waits for from the queue (see `DecisionFlow`).
 */

/**
 * Gateways of this process by deployment prefix, told each outcome directly by an aggregator
 * running beside them (`npm start`): no round trip through Redis and no second parse on the path
 * of every decision. The message on the channel still goes out, for the other processes, and a
 * gateway drops it unread once the direct word has answered its wait.
 */
const sameProcessListeners = new Map<string, Set<(outcome: DecisionOutcome) => void>>();

/** Hears the outcomes an aggregator in this process publishes under `prefix`; returns the way to stop. */
export function hearOutcomesInProcess(prefix: string, listener: (outcome: DecisionOutcome) => void): () => void {
  let listeners = sameProcessListeners.get(prefix);
  if (!listeners) sameProcessListeners.set(prefix, (listeners = new Set()));
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) sameProcessListeners.delete(prefix);
  };
}

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

/** Runs one aggregate job: its data as enqueued (unchecked), and what it may do with its decision. */
export type AggregateProcessor = (data: AggregateJob, run: AggregateRun, signal?: AbortSignal) => Promise<DecisionResponse>;

export interface AggregateWorkerSettings extends WorkerSettings {
  /** Where a decision's later calls (gossip rounds, the judge) are added; without it `askMore` throws. */
  steps?: DecisionSteps;
}

/**
 * The aggregate queue's worker: runs `processor` and tells the waiting gateways each decision's
 * outcome. A decision is told twice. First as soon as `processor` returns it: the aggregator
 * returns a decision only once it is written to the store, so the answer is final, and the waiting
 * client does not wait on BullMQ's recording of the job (a round trip, then the event). Then again
 * once BullMQ has recorded the job (completed, or failed for good: attempts used up, or an
 * unrecoverable error), for a gateway that began waiting in between: it found the job unfinished,
 * so it waits for a message, and this one is it. A gateway waiting for no such decision drops a
 * message unread (see `outcomeDecisionId`). A crash before either publication loses only the
 * message; the gateways' periodic check of long waits reads the result from the job (see
 * `DecisionFlow`).
 */
export function createAggregateWorker(processor: AggregateProcessor, settings: AggregateWorkerSettings): WorkerPool<AggregateJob, DecisionResponse> {
  const channel = decisionOutcomesChannel(settings.prefix);
  const publish = (outcome: DecisionOutcome) => {
    for (const listener of sameProcessListeners.get(settings.prefix) ?? []) listener(outcome);
    settings.connection.publish(channel, encodeOutcome(outcome)).catch(() => undefined);
  };
  const decided = (data: AggregateJob, response: DecisionResponse) => publish({ decision_id: data.decision_id, ok: true, response });
  const worker = createWorker<AggregateJob, DecisionResponse>(
    AGGREGATE_QUEUE,
    async (job, token, signal) => {
      if (token === undefined) throw new Error("the aggregate job runs without a lock token");
      const response = await processor(job.data, aggregateRun(job, token, settings.steps), signal);
      decided(job.data, response);
      return response;
    },
    settings,
  );
  worker.on("completed", ({ data, result }) => decided(data, result));
  worker.on("failed", ({ data, error, final }) => {
    if (final && data) publish({ decision_id: data.decision_id, ok: false, reason: error.message });
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
