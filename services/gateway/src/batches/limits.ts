/**
 * A counting semaphore: `acquire` resolves once one of `size` slots is free (first come, first
 * served), `release` frees it. The runner holds one slot per decision in flight.
 */
export class Slots {
  private used = 0;
  private readonly queue: (() => void)[] = [];

  constructor(private readonly size: number) {}

  acquire(): Promise<void> {
    if (this.used < this.size) {
      this.used += 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.queue.push(resolve));
  }

  release(): void {
    const next = this.queue.shift();
    // The slot goes straight to the next waiter: `used` stays the same.
    if (next) next();
    else this.used -= 1;
  }

  get inUse(): number {
    return this.used;
  }
}

/**
 * Calls `send` at most once per `intervalMs`, with the latest value: a burst of line completions
 * becomes one event now and one at the end of the interval, never one per line.
 */
export class Throttle<T> {
  private last = 0;
  private pending: T | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly intervalMs: number,
    private readonly send: (value: T) => void,
  ) {}

  push(value: T): void {
    const wait = this.last + this.intervalMs - Date.now();
    if (wait <= 0 && !this.timer) {
      this.last = Date.now();
      this.send(value);
      return;
    }
    this.pending = value;
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.last = Date.now();
      const value = this.pending as T;
      this.pending = undefined;
      this.send(value);
    }, Math.max(0, wait));
    this.timer.unref();
  }

  /** Sends `value` now, dropping what was waiting: the last word (a batch's end). */
  flush(value: T): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = undefined;
    this.last = Date.now();
    this.send(value);
  }
}
