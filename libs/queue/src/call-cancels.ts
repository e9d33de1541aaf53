import type { Redis } from "ioredis";
import { decisionCancelChannel, decisionCancelledKey } from "./queue-keys";
import { patientDuplicate } from "./redis";

/** Longer than any decision runs: a vote job that starts after the mark still sees it. */
const CANCEL_TTL_SECONDS = 3600;

/**
 * Cancels a decision's model calls when the client that waited for it went away (an aborted
 * stream, a closed MCP request): a mark in Redis that vote jobs read before they call their model,
 * and a message that aborts the calls already running, set and published in one round trip. The
 * decision still completes from the votes that were in, so it is stored and billed like any other.
 */
export class CallCancels {
  private subscriber: Redis | null = null;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async cancel(decisionId: string): Promise<void> {
    await this.redis
      .multi()
      .set(decisionCancelledKey(this.prefix, decisionId), "1", "EX", CANCEL_TTL_SECONDS)
      .publish(decisionCancelChannel(this.prefix), decisionId)
      .exec();
  }

  async isCancelled(decisionId: string): Promise<boolean> {
    return (await this.redis.exists(decisionCancelledKey(this.prefix, decisionId))) === 1;
  }

  /** Calls `onCancel` with each decision cancelled from now on, wherever it was cancelled. */
  async listen(onCancel: (decisionId: string) => void): Promise<void> {
    this.subscriber ??= patientDuplicate(this.redis, "decision-cancel");
    this.subscriber.on("message", (_channel: string, decisionId: string) => onCancel(decisionId));
    await this.subscriber.subscribe(decisionCancelChannel(this.prefix));
  }

  async close(): Promise<void> {
    this.subscriber?.disconnect();
    this.subscriber = null;
  }
}
