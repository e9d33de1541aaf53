import type { Redis } from "ioredis";
import { VoteEventSchema, type VoteEvent } from "@sd/contracts";
import { decisionVotesChannel } from "@sd/queue";

/**
 * Every model's progress as LiveEvents publishes it, for the requests this gateway streams over
 * HTTP (chat completions with `stream`, MCP progress). One subscription per gateway; a message for
 * a request nobody here listens to is dropped unread.
 */
export class VoteFeed {
  private readonly listeners = new Map<string, Set<(event: VoteEvent) => void>>();
  private readonly channel: string;

  constructor(
    private readonly subscriber: Redis,
    prefix: string,
  ) {
    this.channel = decisionVotesChannel(prefix);
  }

  async start(): Promise<void> {
    this.subscriber.on("message", (channel: string, message: string) => {
      if (channel === this.channel) this.deliver(message);
    });
    await this.subscriber.subscribe(this.channel);
  }

  /** Calls `listener` with each progress event of `requestId` until the returned function is called. */
  listen(requestId: string, listener: (event: VoteEvent) => void): () => void {
    let set = this.listeners.get(requestId);
    if (!set) this.listeners.set(requestId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(requestId);
    };
  }

  private deliver(message: string): void {
    const end = message.indexOf("\n");
    const listeners = end < 0 ? undefined : this.listeners.get(message.slice(0, end));
    if (!listeners) return;
    let parsed;
    try {
      parsed = VoteEventSchema.safeParse(JSON.parse(message.slice(end + 1)));
    } catch {
      return;
    }
    if (parsed.success) for (const listener of listeners) listener(parsed.data);
  }

  close(): void {
    this.subscriber.disconnect();
  }
}
