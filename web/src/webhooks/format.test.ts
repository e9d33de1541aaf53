import { describe, expect, it } from "vitest";
import { deliveryOutcome, endpointState, formatLatency, toggleEvent } from "./format";

describe("toggleEvent", () => {
  it("adds and removes an event, keeping the form's order and each event once", () => {
    expect(toggleEvent(["batch.completed"], "decision.completed", true)).toEqual(["decision.completed", "batch.completed"]);
    expect(toggleEvent(["decision.completed", "batch.completed"], "decision.completed", false)).toEqual(["batch.completed"]);
    expect(toggleEvent(["decision.completed"], "decision.completed", true)).toEqual(["decision.completed"]);
  });
});

describe("endpointState", () => {
  const base = { active: true, disabled_reason: null, failing_since: null };
  it("puts the server's notice first, then a pause by the user, then failures", () => {
    const reason = "Disabled after failing for 24 hours: HTTP 500";
    expect(endpointState({ ...base, active: false, disabled_reason: reason, failing_since: "2026-01-01T00:00:00.000Z" })).toEqual({ kind: "disabled", reason });
    expect(endpointState({ ...base, active: false })).toEqual({ kind: "paused" });
    expect(endpointState({ ...base, failing_since: "2026-01-01T00:00:00.000Z" })).toEqual({ kind: "failing", since: "2026-01-01T00:00:00.000Z" });
    expect(endpointState(base)).toEqual({ kind: "active" });
  });
});

describe("deliveryOutcome and formatLatency", () => {
  it("says the receiver's status, with the error of a failure, or the error when no answer came", () => {
    expect(deliveryOutcome({ ok: true, status_code: 204, error: null })).toBe("HTTP 204");
    expect(deliveryOutcome({ ok: false, status_code: 500, error: "The receiver answered 500" })).toBe("HTTP 500 · The receiver answered 500");
    expect(deliveryOutcome({ ok: false, status_code: null, error: "Timed out after 10 s" })).toBe("Timed out after 10 s");
    expect(deliveryOutcome({ ok: false, status_code: null, error: null })).toBe("Failed");
  });
  it("writes latency in ms under a second, in seconds above, and a dash when none was measured", () => {
    expect(formatLatency(84.6)).toBe("85 ms");
    expect(formatLatency(1234)).toBe("1.2 s");
    expect(formatLatency(null)).toBe("—");
  });
});
