/**
 * When the admin page asks its figures again by itself. Pure of React and the DOM (the clock and
 * the page's visibility come in), so the timing is unit-tested with fake timers.
 */
export const LIVE_REFRESH = {
  /**
   * While decisions keep finishing, the open tab is asked again at most this often: the first
   * finished decision shows at once, a busy system does not turn every second into a query.
   */
  throttleMs: 3_000,
  /** Every query is also asked again this often while the page is visible: workers, queues and the moving hour change without a decision. */
  intervalMs: 30_000,
} as const;

export interface LiveRefresher {
  /** The admin room said decisions finished. */
  decisionsFinished(): void;
  /** The page became visible again: catches up on decisions that finished while it was hidden. */
  shown(): void;
  stop(): void;
}

/**
 * Calls `refresh` when decisions finish: at once, then at most once per `throttleMs` (what finishes
 * in between is caught by one trailing call). A hidden page asks nothing; it is refreshed once when
 * shown again, if anything finished meanwhile.
 */
export function createLiveRefresher(refresh: () => void, { throttleMs, isVisible }: { throttleMs: number; isVisible: () => boolean }): LiveRefresher {
  let lastRun = Number.NEGATIVE_INFINITY;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let missedWhileHidden = false;

  const run = () => {
    if (!isVisible()) {
      missedWhileHidden = true;
      return;
    }
    missedWhileHidden = false;
    lastRun = Date.now();
    refresh();
  };

  const decisionsFinished = () => {
    if (timer !== null) return;
    const wait = lastRun + throttleMs - Date.now();
    if (wait <= 0) {
      run();
      return;
    }
    timer = setTimeout(() => {
      timer = null;
      run();
    }, wait);
  };

  return {
    decisionsFinished,
    shown() {
      if (missedWhileHidden) decisionsFinished();
    },
    stop() {
      if (timer !== null) clearTimeout(timer);
      timer = null;
    },
  };
}

/** How long ago the figures came, as the header says it ('just now', '12 s ago', '3 min ago', '2 h ago'). */
export function updatedAgo(updatedAt: number, now: number): string {
  const seconds = Math.max(0, Math.floor((now - updatedAt) / 1000));
  if (seconds < 5) return "just now";
  if (seconds < 60) return `${seconds} s ago`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  return `${Math.floor(minutes / 60)} h ago`;
}
