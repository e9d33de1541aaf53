import { setTimeout as delay } from "node:timers/promises";
import { PhaseRecord } from "./http-load";

/** One answered decision: when it was sent and when its answer came (performance.now(), ms). */
export interface Timed {
  sentAt: number;
  answeredAt: number;
}

export interface SteadyLoad {
  concurrency: number;
  /** The users join one by one over this many ms (why: the header of decisions.ts). */
  rampMs: number;
  /**
   * The same load after the ramp, not measured: a fresh product's connections, JIT and queues warm
   * up. The window opens after it, once every user has had an answer too.
   */
  warmupMs: number;
  /** The measured window lasts this long, or until `maxCount` decisions were sent in it. */
  windowMs: number;
  maxCount: number;
  /** Makes decision `i`; resolves null when it was answered completely, else why not (a rejection fails it too). */
  task: (i: number) => Promise<string | null>;
  /** Told as the window opens and closes (e.g. to read the CPU counters around it). */
  onWindow?: { opened(): void; closed(): void };
}

export interface SteadyRun {
  /** The decisions sent in the window: their latencies and failures; `seconds` is the window's length. */
  record: PhaseRecord;
  /** The answered decisions sent in the window, in the order they were sent. */
  timeline: Timed[];
  /** Answers that came within the window, per second: the steady state's throughput, without the ramp, the warm-up or the drain. */
  perSecond: number;
  /** When the window opened, seconds after the first user started. */
  openedAfter: number;
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * A closed loop of `concurrency` users that runs on through a measured window, so the window sees
 * the steady state: a loop that starts and ends with it would also measure the first round (no
 * answer yet) and the last (fewer users than `concurrency`), a model latency each, which at 1 s
 * models and a 15 s window is a tenth of the throughput. The window waits for every user's first
 * answer: a product many times slower than its models is still in its first round after the
 * warm-up. A failure before the window stops the loop and rejects (a broken product should not
 * cost the whole window).
 */
export async function steadyLoad(load: SteadyLoad): Promise<SteadyRun> {
  const record = new PhaseRecord();
  const timeline: Timed[] = [];
  const started = performance.now();
  let opensAt = Number.POSITIVE_INFINITY;
  let closesAt = Number.POSITIVE_INFINITY;
  let warmedUp = false;
  let usersAnswered = 0;
  let sentInWindow = 0;
  let answeredInWindow = 0;
  let next = 0;
  let failure: Error | null = null;
  let closeTimer: NodeJS.Timeout | undefined;
  let closed = false;
  const close = (at: number) => {
    if (closed) return;
    closed = true;
    closesAt = Math.min(closesAt, at);
    clearTimeout(closeTimer);
    load.onWindow?.closed();
  };
  const open = () => {
    if (!warmedUp || usersAnswered < load.concurrency || opensAt !== Number.POSITIVE_INFINITY || failure !== null) return;
    opensAt = performance.now();
    closesAt = opensAt + load.windowMs;
    closeTimer = setTimeout(() => close(performance.now()), load.windowMs);
    load.onWindow?.opened();
  };
  const warmupTimer = setTimeout(() => {
    warmedUp = true;
    open();
  }, load.rampMs + load.warmupMs);

  const user = async (u: number): Promise<void> => {
    if (load.rampMs > 0 && u > 0) await delay((load.rampMs * u) / load.concurrency);
    let answered = false;
    while (failure === null) {
      const sentAt = performance.now();
      if (sentAt >= closesAt || (sentAt >= opensAt && sentInWindow >= load.maxCount)) return close(sentAt);
      const measured = sentAt >= opensAt;
      if (measured) sentInWindow += 1;
      const problem = await load.task(next++).catch(message);
      const answeredAt = performance.now();
      if (problem === null && answeredAt >= opensAt && answeredAt < closesAt) answeredInWindow += 1;
      if (!measured) {
        if (problem !== null) failure ??= new Error(`warm-up: ${problem}`);
      } else if (problem !== null) {
        record.fail(problem);
      } else {
        record.answered.push(answeredAt - sentAt);
        timeline.push({ sentAt, answeredAt });
      }
      if (!answered) {
        answered = true;
        usersAnswered += 1;
        open();
      }
    }
  };
  await Promise.all(Array.from({ length: load.concurrency }, (_, u) => user(u)));
  clearTimeout(warmupTimer);
  clearTimeout(closeTimer);
  if (failure) throw failure;
  record.seconds = (closesAt - opensAt) / 1000;
  timeline.sort((a, b) => a.sentAt - b.sentAt);
  return { record, timeline, perSecond: answeredInWindow / record.seconds, openedAfter: (opensAt - started) / 1000 };
}

/** Where `value` would go in ascending `sorted`: how many of its items are smaller. */
function rank(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * For each decision of `timeline` (in the order sent), how many decisions sent after it were
 * answered before it: a fair pipeline answers in about the order it was asked, so a decision
 * that many later ones overtook waited behind work that was not there when it came.
 */
export function overtakes(timeline: readonly Timed[]): number[] {
  // The answer times of the decisions sent later, ascending, built from the last one sent backwards.
  const later: number[] = [];
  const counts = new Array<number>(timeline.length);
  for (let i = timeline.length - 1; i >= 0; i--) {
    const { answeredAt } = timeline[i]!;
    const before = rank(later, answeredAt);
    counts[i] = before;
    later.splice(before, 0, answeredAt);
  }
  return counts;
}
