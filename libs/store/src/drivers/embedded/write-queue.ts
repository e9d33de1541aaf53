/** How one insert of a committed batch ended: stored, or refused with `error`. */
export type InsertOutcome = { ok: true } | { ok: false; error: unknown };

/** Commits consecutive inserts together (one journal flush); one outcome per insert, in order. */
export type CommitInserts<TInsert> = (inserts: TInsert[]) => Promise<InsertOutcome[]>;

interface Settle<T> {
  resolve(value: T): void;
  reject(error: unknown): void;
}

type QueuedWrite<TInsert> = ({ kind: "insert"; insert: TInsert } & Settle<void>) | ({ kind: "alone"; task: () => Promise<unknown> } & Settle<unknown>);

/**
 * An embedded collection's writes in call order, with group commit and no timer (so a lone write
 * never waits): inserts queued while a flush runs go out together in the next one. Any other write
 * runs alone after everything queued before it, so the journal order is the apply order.
 */
export class WriteQueue<TInsert> {
  readonly #waiting: QueuedWrite<TInsert>[] = [];
  #writing = false;

  constructor(private readonly commitInserts: CommitInserts<TInsert>) {}

  /** Queues an insert; resolves once it is committed (durable and applied), rejects with its outcome's error. */
  insert(insert: TInsert): Promise<void> {
    return new Promise<void>((resolve, reject) => this.#enqueue({ kind: "insert", insert, resolve, reject }));
  }

  /** Queues a write that runs alone, after every write queued before it. */
  run<T>(task: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => this.#enqueue({ kind: "alone", task, resolve: resolve as (value: unknown) => void, reject }));
  }

  #enqueue(write: QueuedWrite<TInsert>): void {
    this.#waiting.push(write);
    // Nothing in progress: start now, synchronously, so a lone write waits for nothing.
    if (!this.#writing) void this.#writeAll();
  }

  async #writeAll(): Promise<void> {
    this.#writing = true;
    try {
      for (let head = this.#waiting[0]; head !== undefined; head = this.#waiting[0]) {
        if (head.kind === "alone") {
          this.#waiting.shift();
          await settle(head, head.task);
        } else {
          await this.#commit(this.#takeLeadingInserts());
        }
      }
    } finally {
      this.#writing = false;
    }
  }

  /** Removes and returns the inserts at the head of the queue, up to the first write of another kind. */
  #takeLeadingInserts(): Extract<QueuedWrite<TInsert>, { kind: "insert" }>[] {
    const end = this.#waiting.findIndex((write) => write.kind !== "insert");
    const batch = this.#waiting.splice(0, end === -1 ? this.#waiting.length : end);
    return batch as Extract<QueuedWrite<TInsert>, { kind: "insert" }>[];
  }

  async #commit(batch: Extract<QueuedWrite<TInsert>, { kind: "insert" }>[]): Promise<void> {
    let outcomes: InsertOutcome[];
    try {
      outcomes = await this.commitInserts(batch.map((write) => write.insert));
    } catch (error) {
      // commitInserts reports per insert; a throw is a bug there, and still must not leave callers waiting.
      outcomes = batch.map(() => ({ ok: false, error }));
    }
    batch.forEach((write, i) => {
      const outcome = outcomes[i] ?? { ok: false, error: new Error("The write queue lost track of an insert") };
      if (outcome.ok) write.resolve();
      else write.reject(outcome.error);
    });
  }
}

async function settle<T>(write: Settle<T>, task: () => Promise<T>): Promise<void> {
  try {
    write.resolve(await task());
  } catch (error) {
    write.reject(error);
  }
}
