/**
 * The decision pipeline's queue roles alone, in this process: the gateway's DecisionFlow, the
 * workers of each provider queue, whose votes answer on a timer, and the aggregate queue's
 * workers, which read the votes as the aggregator does. No HTTP, no model SDK, no store: what
 * `npm run bench:queue` and the capacity part of `npm run bench` measure as the queue's own cost.
 */
import { randomUUID } from "node:crypto";
import { setTimeout as delay } from "node:timers/promises";
import { type AggregateJob, type DecisionResponse, type Vote } from "@sd/contracts";
import { createAggregateWorker, createRedis, createRequestRedis, createVoteWorker, DecisionFlow, type Redis, type WorkerPool } from "@sd/queue";

/** The playground's panel: one vote queue each. */
export const QUEUE_PROVIDERS = ["openai", "gemini", "claude"];

export interface QueuePipelineSettings {
  redisUrl: string;
  prefix: string;
  /** Job slots per provider queue and on the aggregate queue. */
  concurrency: number;
  /** Each vote's answer time; 0 answers at once (no timer, whose shortest wait is 1 ms). */
  latencyMs: number;
}

export interface QueuePipeline {
  flow: DecisionFlow;
  close(): Promise<void>;
}

function vote(provider: string, latencyMs: number): Vote {
  return {
    provider,
    status: "success",
    category: "Approve",
    rationale: "Within policy.",
    confidence: 0.9,
    raw_response: '{"category":"Approve","rationale":"Within policy.","confidence":0.9}',
    model_version: `${provider}-emulated`,
    error: null,
    weight: 1,
    latency_ms: latencyMs,
    attempts: 1,
    usage: null,
    cost_usd: 0,
  };
}

/** The pipeline's roles in this process, as the all-in-one runs them. */
export function startQueuePipeline({ redisUrl, prefix, concurrency, latencyMs }: QueuePipelineSettings): QueuePipeline {
  const connections: Redis[] = [];
  const connect = (name: string) => {
    const connection = createRedis(redisUrl, name);
    connections.push(connection);
    return connection;
  };
  const settings = (name: string) => ({ connection: connect(name), prefix, concurrency, lockMs: 30_000 });
  const workers: Pick<WorkerPool<unknown, unknown>, "close">[] = QUEUE_PROVIDERS.map((provider) =>
    createVoteWorker(
      provider,
      async () => {
        if (latencyMs > 0) await delay(latencyMs);
        return vote(provider, latencyMs);
      },
      settings(`bench-${provider}`),
    ),
  );
  workers.push(
    createAggregateWorker(async (data, run) => {
      // What the aggregator reads of a decision's votes (services/aggregator/src/ensemble-driver.ts).
      const votes = [...(await run.finishedCalls()).returned.values()];
      return {
        final_decision: votes[0]?.category ?? null,
        total_votes: votes.length,
        vote_counts: { Approve: votes.length },
        individual_responses: Object.fromEntries(votes.map((v) => [v.provider, v.category])),
        decision_id: data.decision_id,
        question: data.question,
      } satisfies DecisionResponse;
    }, settings("bench-aggregator")),
  );
  const requests = createRequestRedis(redisUrl, "bench-gateway", 2000);
  connections.push(requests);
  const flow = new DecisionFlow(requests, prefix, 1);
  return {
    flow,
    close: async () => {
      await Promise.all(workers.map((worker) => worker.close()));
      await flow.close();
      for (const connection of connections) connection.disconnect();
    },
  };
}

const question = "Approve the expense report?";
const categories = ["Approve", "Reject", "Escalate"];

/** One decision as the gateway makes it: listen, enqueue, wait for the outcome. */
export async function decideThroughQueue(flow: DecisionFlow): Promise<void> {
  const decisionId = randomUUID();
  const pending = flow.listen(decisionId, 60_000);
  const job: AggregateJob = {
    decision_id: decisionId,
    request_id: null,
    question,
    categories,
    images: [],
    providers: QUEUE_PROVIDERS,
    ensemble_mode: "majority_voting",
    received_at: Date.now(),
    vote_deadline_at: Date.now() + 30_000,
    is_authenticated: false,
    user_id: null,
    user_email: null,
    user_ip: "127.0.0.1",
    api_key_id: null,
  };
  try {
    await flow.enqueue(job);
  } catch (error) {
    pending.cancel();
    throw error;
  }
  pending.enqueued();
  const response = await pending.result;
  if (response.total_votes !== QUEUE_PROVIDERS.length) throw new Error(`decision ${decisionId}: ${response.total_votes} votes, expected ${QUEUE_PROVIDERS.length}`);
}
