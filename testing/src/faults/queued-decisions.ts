import { AGGREGATE_QUEUE } from "@sd/contracts";
import type { Redis } from "@sd/queue";
import { jobData } from "../redis-inspect";

/**
 * The drill's decisions whose flow is in Redis under `prefix` (queued, voting, or finished and
 * still kept), as decision id → question: what a crashed gateway had accepted.
 */
export async function queuedDecisions(redis: Redis, prefix: string, tag: string): Promise<Map<string, string>> {
  const parentKey = new RegExp(`^${prefix}:${AGGREGATE_QUEUE}:([^:]+)$`);
  const found = new Map<string, string>();
  for (const [key, data] of await jobData(redis, prefix)) {
    const decisionId = parentKey.exec(key)?.[1];
    if (decisionId === undefined) continue;
    const { question } = JSON.parse(data) as { question?: string };
    if (question?.includes(tag)) found.set(decisionId, question);
  }
  return found;
}
