import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { systemClock } from "./expiry-clock";

beforeEach(() => {
  vi.useFakeTimers({ now: new Date("2025-01-01T00:00:00Z") });
});
afterEach(() => {
  vi.useRealTimers();
});

describe("systemClock", () => {
  it("fires at the given time, not before", () => {
    const fire = vi.fn();
    systemClock.at(new Date(Date.now() + 900_000), fire);
    vi.advanceTimersByTime(899_999);
    expect(fire).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fire).toHaveBeenCalledTimes(1);
  });

  it("never fires once cancelled", () => {
    const fire = vi.fn();
    const cancel = systemClock.at(new Date(Date.now() + 1000), fire);
    cancel();
    vi.advanceTimersByTime(5000);
    expect(fire).not.toHaveBeenCalled();
  });

  it("fires at once for a time already past", () => {
    const fire = vi.fn();
    systemClock.at(new Date(Date.now() - 1000), fire);
    vi.advanceTimersByTime(0);
    expect(fire).toHaveBeenCalledTimes(1);
  });

  it("waits past setTimeout's 24.8-day limit (a long-lived token) instead of firing early", () => {
    const fire = vi.fn();
    const days = 30;
    systemClock.at(new Date(Date.now() + days * 86_400_000), fire);
    vi.advanceTimersByTime(25 * 86_400_000);
    expect(fire).not.toHaveBeenCalled();
    vi.advanceTimersByTime(5 * 86_400_000);
    expect(fire).toHaveBeenCalledTimes(1);
  });
});
