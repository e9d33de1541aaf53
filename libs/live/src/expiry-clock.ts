/** Schedules the end of a history watch (the token's expiry); tests pass a clock they move by hand. */
export interface ExpiryClock {
  /** Calls `fire` at `when`; the returned function cancels it. */
  at(when: Date, fire: () => void): () => void;
}

/** setTimeout's longest delay (about 24.8 days); longer waits are re-armed. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export const systemClock: ExpiryClock = {
  at(when, fire) {
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      const delay = when.getTime() - Date.now();
      timer = setTimeout(delay > MAX_TIMER_MS ? arm : fire, Math.max(0, Math.min(delay, MAX_TIMER_MS)));
      // A pending expiry must not keep a stopping process alive.
      timer.unref();
    };
    arm();
    return () => clearTimeout(timer);
  },
};
