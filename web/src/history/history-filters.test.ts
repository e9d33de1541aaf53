import { afterEach, describe, expect, it } from "vitest";
import { LIMITS } from "@sd/contracts";
import {
  EMPTY_FILTERS,
  filtersFromSearch,
  filtersProblem,
  historyQuery,
  isFiltered,
  localDayBound,
  sameSearch,
  searchWithFilters,
  type HistoryFilters,
} from "./history-filters";

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

describe("filters in the dashboard URL", () => {
  const search = (query: string) => new URLSearchParams(query);

  it("round-trip every filter through the query string", () => {
    const all = filters({ question: "lunch today?", category: "Pizza & pasta", status: "without", dateFrom: "2026-01-31", dateTo: "2026-02-28" });
    const written = searchWithFilters(search(""), all);
    expect(written.toString()).toBe("question=lunch+today%3F&category=Pizza+%26+pasta&status=without&from=2026-01-31&to=2026-02-28");
    expect(filtersFromSearch(written)).toEqual(all);
  });

  it("leave out filters at their default, so an unfiltered dashboard is plain /dashboard", () => {
    expect(searchWithFilters(search(""), EMPTY_FILTERS).toString()).toBe("");
    expect(searchWithFilters(search("question=old&status=with"), EMPTY_FILTERS).toString()).toBe("");
    expect(filtersFromSearch(search(""))).toEqual(EMPTY_FILTERS);
  });

  it("keep the URL's other parameters and write the question trimmed", () => {
    expect(searchWithFilters(search("tab=export&status=with"), filters({ question: "  ship?  " })).toString()).toBe("tab=export&question=ship%3F");
  });

  it("read a hand-edited link as a search the inputs can show", () => {
    expect(filtersFromSearch(search("status=maybe&from=2024-02-31&to=yesterday&category="))).toEqual(EMPTY_FILTERS);
    expect(filtersFromSearch(search(`question=${"x".repeat(LIMITS.maxQuestionLength + 50)}`)).question).toHaveLength(LIMITS.maxQuestionLength);
    // A From Date after the To Date is kept: the dashboard says what is wrong instead of dropping a date.
    const reversed = filtersFromSearch(search("from=2026-03-02&to=2026-03-01"));
    expect(filtersProblem(reversed)).toBe("From Date must be on or before To Date.");
  });
});
