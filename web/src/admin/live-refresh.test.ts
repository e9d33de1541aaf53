import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createLiveRefresher, updatedAgo } from "./live-refresh";

describe("the admin page's live refresh", () => {
  let visible: boolean;
  let refresh: ReturnType<typeof vi.fn<() => void>>;
  const refresher = () => createLiveRefresher(refresh, { throttleMs: 3_000, isVisible: () => visible });

  beforeEach(() => {
    vi.useFakeTimers();
    visible = true;
    refresh = vi.fn<() => void>();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("refreshes at once for the first finished decision, then at most once per throttle window", () => {
    const live = refresher();
    live.decisionsFinished();
    expect(refresh).toHaveBeenCalledTimes(1);
    // A decision a second for the next 5 s: one trailing refresh when the window ends, one more at 6 s.
    for (let second = 1; second <= 5; second++) {
      vi.advanceTimersByTime(1_000);
      live.decisionsFinished();
    }
    expect(refresh).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(1_000);
    expect(refresh).toHaveBeenCalledTimes(3);
    // Quiet afterwards: nothing more is asked.
    vi.advanceTimersByTime(60_000);
    expect(refresh).toHaveBeenCalledTimes(3);
  });

  it("asks nothing while the page is hidden, and catches up once when it shows again", () => {
    const live = refresher();
    visible = false;
    live.decisionsFinished();
    vi.advanceTimersByTime(10_000);
    live.decisionsFinished();
    expect(refresh).not.toHaveBeenCalled();
    visible = true;
    live.shown();
    expect(refresh).toHaveBeenCalledTimes(1);
    // Shown again with nothing new: no call.
    vi.advanceTimersByTime(10_000);
    live.shown();
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it("drops a pending trailing refresh when stopped", () => {
    const live = refresher();
    live.decisionsFinished();
    live.decisionsFinished();
    live.stop();
    vi.advanceTimersByTime(10_000);
    expect(refresh).toHaveBeenCalledTimes(1);
  });
});

describe("updated ... ago", () => {
  it("says how old the figures are, in seconds, minutes or hours", () => {
    const now = Date.UTC(2025, 0, 1, 12);
    expect(updatedAgo(now, now)).toBe("just now");
    expect(updatedAgo(now - 4_999, now)).toBe("just now");
    expect(updatedAgo(now - 12_000, now)).toBe("12 s ago");
    expect(updatedAgo(now - 3 * 60_000 - 59_000, now)).toBe("3 min ago");
    expect(updatedAgo(now - 2 * 3_600_000, now)).toBe("2 h ago");
    // A clock a little behind the server's never says "-1 s ago".
    expect(updatedAgo(now + 2_000, now)).toBe("just now");
  });
});
