import { z } from "zod";
import { EnsembleRecordSchema } from "./ensemble";
import { DecisionLinkSchema, ModeComparisonSchema } from "./decision-compare";
import { LIMITS } from "./limits";
import type { StoredDecision } from "./stored-decision";
import { TokenUsageSchema } from "./vote";

/** Texts of the decision-history endpoints and pages. */
export const HISTORY_MESSAGES = {
  notFound: "Decision not found",
  listed: (count: number) => (count === 1 ? "Found 1 decision." : `Found ${count} decisions.`),
  found: "Decision found.",
  /** Dashboard. */
  sessionExpired: "Your session has expired. Please sign in again.",
  authRequired: "Authentication required to access decision history",
  fetchFailed: "Failed to fetch dashboard data",
  /** Decision detail. */
  detailAuthRequired: "Authentication required to view decision details",
  idRequired: "Decision ID is required",
  detailFetchFailed: "Failed to fetch decision details",
} as const;

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A date bound of the history filters: an ISO 8601 date-time is that instant; a bare date
 * (YYYY-MM-DD) is a whole UTC day, so `dateFrom` takes its first millisecond and `dateTo` its last
 * (both bounds are inclusive). The web app sends the user's local day as two date-times.
 */
function dateBound(name: string, edge: "start" | "end") {
  return z
    .string({ error: `${name} must be a date (YYYY-MM-DD) or an ISO 8601 date-time.` })
    .max(40, `${name} must be a date (YYYY-MM-DD) or an ISO 8601 date-time.`)
    .transform((value, ctx) => {
      const trimmed = value.trim();
      const dateOnly = DATE_ONLY.test(trimmed);
      const parsed = dateOnly
        ? new Date(`${trimmed}T${edge === "start" ? "00:00:00.000" : "23:59:59.999"}Z`)
        : /^\d{4}-\d{2}-\d{2}T/.test(trimmed)
          ? new Date(trimmed)
          : new Date(Number.NaN);
      // `new Date("2024-02-31")` rolls over to March: a bare date must survive the round trip.
      if (Number.isNaN(parsed.getTime()) || (dateOnly && parsed.toISOString().slice(0, 10) !== trimmed)) {
        ctx.addIssue({ code: "custom", message: `${name} must be a date (YYYY-MM-DD) or an ISO 8601 date-time.` });
        return z.NEVER;
      }
      return parsed;
    });
}

/** A pattern of exactly the whole numbers 0 to `max` without leading zeros, so the document's pattern is the check. */
function upToPattern(max: number): RegExp {
  const digits = String(max);
  const n = digits.length;
  const shorter = ["0", ...(n > 1 ? [`[1-9]\\d{0,${n - 2}}`] : [])];
  const sameLength = [...digits].flatMap((digit, i) => {
    const low = i === 0 ? 1 : 0;
    const d = Number(digit);
    if (d <= low) return [];
    return [`${digits.slice(0, i)}[${low}-${d - 1}]${i < n - 1 ? `\\d{${n - i - 1}}` : ""}`];
  });
  return new RegExp(`^(?:${[...shorter, ...sameLength, digits].join("|")})$`);
}

/** A query parameter holding a whole number from 0 to `max` (documented as the exact pattern it matches). */
export function wholeNumber(name: string, max: number) {
  const message = `${name} must be a whole number from 0 to ${max}.`;
  return z
    .string({ error: message })
    .regex(upToPattern(max), message)
    .transform(Number)
    .pipe(z.number().int().min(0, message).max(max, message));
}

/** `limit` and `offset` of a paged list, as every list of the API takes them. */
export function pageQuery({ pageSize, maxPageSize, maxOffset }: { pageSize: number; maxPageSize: number; maxOffset: number }) {
  return {
    limit: wholeNumber("limit", maxPageSize).default(pageSize),
    offset: wholeNumber("offset", maxOffset).default(0),
  };
}

function text(name: string, max: number) {
  return z.string({ error: `${name} must be text.` }).max(max, `${name} must be at most ${max} characters.`);
}

/** The history filters' date rule, shared by every query that takes them (the list, the export). */
export const datesInOrder = (q: { dateFrom?: Date; dateTo?: Date }) => !q.dateFrom || !q.dateTo || q.dateFrom <= q.dateTo;
export const DATES_IN_ORDER = { message: "dateFrom must not be after dateTo.", path: ["dateFrom"] };

/**
 * Query of GET /api/decision-history. Every value arrives as one string;
 * a repeated parameter (an array) or anything else is a 400, so no value can become a query operator.
 */
export const DecisionHistoryQuerySchema = z
  .object({
    ...pageQuery({ pageSize: LIMITS.historyPageSize, maxPageSize: LIMITS.maxHistoryPageSize, maxOffset: LIMITS.maxHistoryOffset }),
    /** An offered category or the final decision, exactly. */
    category: text("category", LIMITS.maxCategoryLength).optional(),
    /** A case-insensitive substring of the question, taken literally. */
    question: text("question", LIMITS.maxQuestionLength).optional(),
    dateFrom: dateBound("dateFrom", "start").optional(),
    dateTo: dateBound("dateTo", "end").optional(),
    hasDecision: z
      .enum(["true", "false"], { error: "hasDecision must be true or false." })
      .transform((value) => value === "true")
      .optional(),
  })
  .refine(datesInOrder, DATES_IN_ORDER);
export type DecisionHistoryQuery = z.output<typeof DecisionHistoryQuerySchema>;
/** The query as a client writes it (all strings; omitted = default). */
export type DecisionHistoryQueryInput = z.input<typeof DecisionHistoryQuerySchema>;

/**
 * Decision history item as the API answers it. `images` are the ids of the
 * decision's image assets (the bytes are stored once, as assets; read them with the image-asset API).
 * `rationales` holds each model's one-sentence reason.
 */
export const DecisionHistoryItemSchema = z.object({
  id: z.string(),
  question: z.string(),
  timestamp: z.string(),
  categories: z.array(z.string()),
  final_decision: z.string().nullable(),
  vote_counts: z.record(z.string(), z.number()),
  total_votes: z.number().int().nonnegative(),
  context_explanation: z.string(),
  individual_responses: z.record(z.string(), z.string().nullable()),
  raw_responses: z.record(z.string(), z.string().nullable()),
  confidence_scores: z.record(z.string(), z.number().nullable()),
  rationales: z.record(z.string(), z.string().nullable()),
  model_versions: z.record(z.string(), z.string()),
  error_details: z.record(z.string(), z.string()),
  processing_time_ms: z.number().nonnegative().nullable(),
  ensemble_mode: z.string(),
  /** How the ensemble decided (panel, weights, rounds, judge, early quorum); null for decisions stored before modes existed. */
  ensemble: EnsembleRecordSchema.nullable(),
  is_authenticated: z.boolean(),
  user_ip: z.string().nullable(),
  user_email: z.string().nullable(),
  images: z.array(z.string()),
  token_usage: z.record(z.string(), TokenUsageSchema.nullable()),
  cost_usd: z.number().nonnegative(),
  /** Per model, milliseconds its calls took (null when none was awaited); {} for decisions stored before they were kept. */
  model_latencies_ms: z.record(z.string(), z.number().nonnegative().nullable()),
  /** Per model, what its calls cost in US dollars (they add up to cost_usd); {} for decisions stored before. */
  model_costs_usd: z.record(z.string(), z.number().nonnegative()),
  /** The decision this one re-runs with another mode or panel, or null. */
  rerun_of: z.string().nullable(),
});
export type DecisionHistoryItem = z.infer<typeof DecisionHistoryItemSchema>;

/** GET /api/decision-history: a page of the caller's decisions, newest first, and how many match in all. */
export const DecisionHistoryListResponseSchema = z.object({
  success: z.boolean(),
  decisions: z.array(DecisionHistoryItemSchema),
  message: z.string(),
  total: z.number().int().nonnegative(),
  limit: z.number().int().nonnegative(),
  offset: z.number().int().nonnegative(),
});
export type DecisionHistoryListResponse = z.infer<typeof DecisionHistoryListResponseSchema>;

/** GET /api/decision-history/{id}. */
export const DecisionHistoryDetailResponseSchema = z.object({
  success: z.boolean(),
  decision: DecisionHistoryItemSchema,
  message: z.string(),
  /** The owner's re-runs of this decision, newest first. */
  reruns: z.array(DecisionLinkSchema).optional(),
  /** What the other modes would have decided from the same votes (see ModeComparisonSchema). */
  compare: ModeComparisonSchema.optional(),
});
export type DecisionHistoryDetailResponse = z.infer<typeof DecisionHistoryDetailResponseSchema>;

/** The API form of a stored decision (the owner's view: no user id). */
export function toDecisionHistoryItem(decision: StoredDecision): DecisionHistoryItem {
  return {
    id: decision.id,
    question: decision.question,
    timestamp: decision.timestamp.toISOString(),
    categories: decision.categories,
    final_decision: decision.final_decision,
    vote_counts: decision.vote_counts,
    total_votes: decision.total_votes,
    context_explanation: decision.context_explanation,
    individual_responses: decision.individual_responses,
    raw_responses: decision.raw_responses,
    confidence_scores: decision.confidence_scores,
    rationales: decision.rationales,
    model_versions: decision.model_versions,
    error_details: decision.error_details,
    processing_time_ms: decision.processing_time_ms,
    ensemble_mode: decision.ensemble_mode,
    ensemble: decision.ensemble ?? null,
    is_authenticated: decision.is_authenticated,
    user_ip: decision.user_ip,
    user_email: decision.user_email,
    images: decision.images,
    token_usage: decision.token_usage,
    cost_usd: decision.cost_usd,
    model_latencies_ms: decision.model_latencies_ms,
    model_costs_usd: decision.model_costs_usd,
    rerun_of: decision.rerun_of ?? null,
  };
}
