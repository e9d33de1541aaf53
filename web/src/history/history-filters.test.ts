import { afterEach, describe, expect, it } from "vitest";
import { EMPTY_FILTERS, filtersProblem, historyQuery, isFiltered, localDayBound, sameSearch, type HistoryFilters } from "./history-filters";

const filters = (overrides: Partial<HistoryFilters>): HistoryFilters => ({ ...EMPTY_FILTERS, ...overrides });
const originalTz = process.env.TZ;

afterEach(() => {
  process.env.TZ = originalTz;
});

describe("history query", () => {
  it("sends only limit and offset without filters (defaults 50 and 0)", () => {
    expect(historyQuery(EMPTY_FILTERS, 0)).toEqual({ limit: "50", offset: "0" });
    expect(historyQuery(EMPTY_FILTERS, 100, 20)).toEqual({ limit: "20", offset: "100" });
  });

  it("sends the category only when it is not 'all', and the question trimmed only when set", () => {
    expect(historyQuery(filters({ category: "all", question: "   " }), 0)).toEqual({ limit: "50", offset: "0" });
    expect(historyQuery(filters({ category: "Yes", question: "  lunch " }), 0)).toEqual({ limit: "50", offset: "0", category: "Yes", question: "lunch" });
  });

  it("maps the status to hasDecision", () => {
    expect(historyQuery(filters({ status: "with" }), 0).hasDecision).toBe("true");
    expect(historyQuery(filters({ status: "without" }), 0).hasDecision).toBe("false");
    expect(historyQuery(filters({ status: "all" }), 0)).not.toHaveProperty("hasDecision");
  });

  it("sends the user's local From/To days as the first and last instant of those days", () => {
    process.env.TZ = "America/New_York";
    expect(historyQuery(filters({ dateFrom: "2024-05-01", dateTo: "2024-05-03" }), 0)).toMatchObject({
      dateFrom: "2024-05-01T04:00:00.000Z",
      dateTo: "2024-05-04T03:59:59.999Z",
    });
    process.env.TZ = "Asia/Tokyo";
    expect(historyQuery(filters({ dateFrom: "2024-05-01", dateTo: "2024-05-01" }), 0)).toMatchObject({
      dateFrom: "2024-04-30T15:00:00.000Z",
      dateTo: "2024-05-01T14:59:59.999Z",
    });
  });

  it("covers a 23-hour day across a daylight-saving change", () => {
    process.env.TZ = "Europe/Berlin";
    expect(localDayBound("2024-03-31", "start")).toBe("2024-03-30T23:00:00.000Z");
    expect(localDayBound("2024-03-31", "end")).toBe("2024-03-31T21:59:59.999Z");
  });

  it("never sends a day that does not exist", () => {
    expect(localDayBound("2024-02-31", "start")).toBeNull();
    expect(localDayBound("31/01/2024", "end")).toBeNull();
    expect(historyQuery(filters({ dateFrom: "nonsense" }), 0)).not.toHaveProperty("dateFrom");
  });
});

describe("filter state", () => {
  it("refuses a From Date after the To Date; the same day is fine", () => {
    expect(filtersProblem(filters({ dateFrom: "2024-05-02", dateTo: "2024-05-01" }))).toBe("From Date must be on or before To Date.");
    expect(filtersProblem(filters({ dateFrom: "2024-05-01", dateTo: "2024-05-01" }))).toBeNull();
    expect(filtersProblem(filters({ dateFrom: "2024-05-02" }))).toBeNull();
  });

  it("knows when any filter is set", () => {
    expect(isFiltered(EMPTY_FILTERS)).toBe(false);
    expect(isFiltered(filters({ question: "  " }))).toBe(false);
    for (const change of [{ question: "x" }, { category: "Yes" }, { status: "without" as const }, { dateFrom: "2024-01-01" }, { dateTo: "2024-01-01" }]) {
      expect(isFiltered(filters(change))).toBe(true);
    }
  });

  it("treats filters that send the same query as the same search", () => {
    expect(sameSearch(filters({ question: "lunch " }), filters({ question: "lunch" }))).toBe(true);
    expect(sameSearch(filters({ category: "Yes" }), EMPTY_FILTERS)).toBe(false);
  });
});
