import { LIMITS } from "@sd/contracts";

/** The dashboard's Decision Status filter. */
export type DecisionStatusFilter = "all" | "with" | "without";

/** What the dashboard's filter inputs hold. */
export interface HistoryFilters {
  question: string;
  /** 'all' or one category. */
  category: string;
  status: DecisionStatusFilter;
  /** The user's local day, as an `<input type="date">` gives it (YYYY-MM-DD), or "". */
  dateFrom: string;
  dateTo: string;
}

export const ALL_CATEGORIES = "all";

export const EMPTY_FILTERS: HistoryFilters = { question: "", category: ALL_CATEGORIES, status: "all", dateFrom: "", dateTo: "" };

export const STATUS_OPTIONS: readonly { value: DecisionStatusFilter; label: string }[] = [
  { value: "all", label: "All" },
  { value: "with", label: "With decisions" },
  { value: "without", label: "Without decisions" },
];

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The first or last millisecond of a local calendar day, as an ISO date-time; null when not a day. */
export function localDayBound(day: string, edge: "start" | "end"): string | null {
  const match = DAY.exec(day);
  if (!match) return null;
  const [year, month, date] = [Number(match[1]), Number(match[2]) - 1, Number(match[3])];
  const at = edge === "start" ? new Date(year, month, date, 0, 0, 0, 0) : new Date(year, month, date, 23, 59, 59, 999);
  // A day that does not exist (2024-02-31) rolls over: refuse it rather than search another day.
  if (Number.isNaN(at.getTime()) || at.getFullYear() !== year || at.getMonth() !== month || at.getDate() !== date) return null;
  return at.toISOString();
}

/** Why the filters cannot be searched (a From Date after the To Date), or null. */
export function filtersProblem(filters: HistoryFilters): string | null {
  if (filters.dateFrom && filters.dateTo && filters.dateFrom > filters.dateTo) return "From Date must be on or before To Date.";
  return null;
}

export function isFiltered(filters: HistoryFilters): boolean {
  return (
    filters.question.trim() !== "" ||
    filters.category !== ALL_CATEGORIES ||
    filters.status !== "all" ||
    filters.dateFrom !== "" ||
    filters.dateTo !== ""
  );
}

/**
 * The query of GET /api/decision-history: category only when not 'all',
 * the others only when set; the local From/To days become the first and last instant of those days.
 */
export function historyQuery(filters: HistoryFilters, offset: number, limit: number = LIMITS.historyPageSize): Record<string, string> {
  const query: Record<string, string> = { limit: String(limit), offset: String(offset) };
  if (filters.category !== ALL_CATEGORIES && filters.category !== "") query.category = filters.category;
  const question = filters.question.trim();
  if (question !== "") query.question = question;
  const from = localDayBound(filters.dateFrom, "start");
  if (from) query.dateFrom = from;
  const to = localDayBound(filters.dateTo, "end");
  if (to) query.dateTo = to;
  if (filters.status !== "all") query.hasDecision = filters.status === "with" ? "true" : "false";
  return query;
}

/** Equal filters search the same thing (the question is compared as it is sent, trimmed). */
export function sameSearch(a: HistoryFilters, b: HistoryFilters): boolean {
  return (
    a.question.trim() === b.question.trim() && a.category === b.category && a.status === b.status && a.dateFrom === b.dateFrom && a.dateTo === b.dateTo
  );
}

/** The dashboard URL's query parameter of each filter (a filtered view can be bookmarked and shared). */
export const FILTER_PARAMS: Readonly<Record<keyof HistoryFilters, string>> = {
  question: "question",
  category: "category",
  status: "status",
  dateFrom: "from",
  dateTo: "to",
};

const isStatus = (value: string | null): value is DecisionStatusFilter => STATUS_OPTIONS.some((option) => option.value === value);

/**
 * The filters a dashboard URL names. Whatever a hand-edited or outdated link holds, the result is a
 * search the inputs can show: an unknown status is "all", a date that is not a real day is none,
 * an over-long question is cut to what the input accepts.
 */
export function filtersFromSearch(params: URLSearchParams): HistoryFilters {
  const day = (name: string) => {
    const value = params.get(name) ?? "";
    return localDayBound(value, "start") ? value : "";
  };
  const status = params.get(FILTER_PARAMS.status);
  return {
    question: (params.get(FILTER_PARAMS.question) ?? "").trim().slice(0, LIMITS.maxQuestionLength),
    category: params.get(FILTER_PARAMS.category) || ALL_CATEGORIES,
    status: isStatus(status) ? status : "all",
    dateFrom: day(FILTER_PARAMS.dateFrom),
    dateTo: day(FILTER_PARAMS.dateTo),
  };
}

/**
 * `params` with the filters written into it: a filter at its default is left out (an unfiltered
 * dashboard is plain /dashboard), and parameters that are not filters are kept.
 */
export function searchWithFilters(params: URLSearchParams, filters: HistoryFilters): URLSearchParams {
  const next = new URLSearchParams(params);
  const values: Record<keyof HistoryFilters, string> = {
    question: filters.question.trim(),
    category: filters.category === ALL_CATEGORIES ? "" : filters.category,
    status: filters.status === "all" ? "" : filters.status,
    dateFrom: filters.dateFrom,
    dateTo: filters.dateTo,
  };
  for (const key of Object.keys(FILTER_PARAMS) as (keyof HistoryFilters)[]) {
    if (values[key]) next.set(FILTER_PARAMS[key], values[key]);
    else next.delete(FILTER_PARAMS[key]);
  }
  return next;
}
