import type { Redis } from "ioredis";
import { quorumAnswersKey, quorumCancelChannel, quorumSettledKey } from "./queue-keys";
import { patientDuplicate } from "./redis";

/** An answer as early quorum weighs it. */
export interface BoardAnswer {
  provider: string;
  category: string | null;
  confidence: number | null;
}

/** What the board knows of a decision after an answer was posted. */
export interface BoardState {
  /** Every answer posted so far, in the order they arrived. */
  answers: BoardAnswer[];
  /** The providers early quorum skipped, once a worker found the winner certain; else null. */
  skipped: string[] | null;
}

/** How long a decision's board lives: longer than any decision waits (the image TTL bounds it too). */
const BOARD_TTL_SECONDS = 3600;

/** SET NX of the settlement and, only if this call set it, the cancel message; else the earlier settlement. */
const SETTLE_SCRIPT = `
if redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2], 'NX') then
  if ARGV[3] ~= '' then redis.call('PUBLISH', ARGV[4], ARGV[3]) end
  return false
end
return redis.call('GET', KEYS[1])
`;

interface CancelMessage {
  decisionId: string;
  providers: string[];
}

/**
 * Early quorum's shared view of one decision, in Redis: the provider workers post each answer as it
 * arrives (one atomic step that also reads every answer and whether the decision is settled), and
 * the first worker to find the winner certain settles it with the providers still pending. Those
 * are told at once (pub/sub) so their calls are cancelled, and a vote job that starts later sees
 * it is skipped without calling its model. The aggregator counts only answers that were not
 * skipped, so a cancelled call's answer can never land late in the tally. The only place that
 * knows these keys.
 */
export class QuorumBoard {
  private subscriber: Redis | null = null;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  /** Posts one answer and returns the board as it is right after it (atomically). */
  async post(decisionId: string, answer: BoardAnswer): Promise<BoardState> {
    const [answersKey, settledKey] = this.keys(decisionId);
    const results = await this.redis
      .multi()
      .rpush(answersKey, JSON.stringify(answer))
      .expire(answersKey, BOARD_TTL_SECONDS)
      .lrange(answersKey, 0, -1)
      .get(settledKey)
      .exec();
    const failed = results?.find(([error]) => error !== null);
    if (!results || failed) throw failed?.[0] ?? new Error("Posting an answer to the quorum board was aborted.");
    return { answers: (results[2]![1] as string[]).map((raw) => JSON.parse(raw) as BoardAnswer), skipped: parseSkipped(results[3]![1] as string | null) };
  }

  /**
   * Settles the decision: `skipped` are not needed. The first settlement wins (a second worker
   * that found the same quorum a moment later gets the first one's list). The skipped providers'
   * workers are told to cancel their calls, in the same round trip (one script: SET NX, then
   * PUBLISH only if it was set), so a settlement is never left untold.
   */
  async settle(decisionId: string, skipped: readonly string[]): Promise<string[]> {
    const [, settledKey] = this.keys(decisionId);
    const message = skipped.length > 0 ? JSON.stringify({ decisionId, providers: [...skipped] } satisfies CancelMessage) : "";
    const earlier = (await this.redis.eval(SETTLE_SCRIPT, 1, settledKey, JSON.stringify(skipped), BOARD_TTL_SECONDS, message, this.channel())) as string | null;
    return earlier === null ? [...skipped] : (parseSkipped(earlier) ?? []);
  }

  /** The providers skipped by early quorum, or null while the decision is not settled. */
  async skipped(decisionId: string): Promise<string[] | null> {
    return parseSkipped(await this.redis.get(this.keys(decisionId)[1]));
  }

  /** Calls `onCancel` for each provider of a decision that early quorum settled without it. */
  async listen(onCancel: (decisionId: string, provider: string) => void): Promise<void> {
    this.subscriber ??= patientDuplicate(this.redis, "quorum-cancel");
    this.subscriber.on("message", (_channel: string, raw: string) => {
      const message = JSON.parse(raw) as CancelMessage;
      for (const provider of message.providers) onCancel(message.decisionId, provider);
    });
    await this.subscriber.subscribe(this.channel());
  }

  async close(): Promise<void> {
    this.subscriber?.disconnect();
    this.subscriber = null;
  }

  private keys(decisionId: string): [answers: string, settled: string] {
    return [quorumAnswersKey(this.prefix, decisionId), quorumSettledKey(this.prefix, decisionId)];
  }

  private channel(): string {
    return quorumCancelChannel(this.prefix);
  }
}

function parseSkipped(raw: string | null): string[] | null {
  return raw === null ? null : (JSON.parse(raw) as string[]);
}
