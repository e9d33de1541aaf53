import type { Filter, SortSpec } from "../collection";

export interface DecisionListQuery {
  /** A user's id: only their decisions; null: only anonymous ones; omitted: everyone's. */
  userId?: string | null;
  limit: number;
  offset: number;
  /** Exact match against one of the offered categories or the final decision. */
  category?: string;
  /** Case-insensitive substring of the question (taken literally, not as a regex). */
  question?: string;
  /** Inclusive lower bound on the timestamp. */
  dateFrom?: Date;
  /** Inclusive upper bound on the timestamp. */
  dateTo?: Date;
  /** true: only decisions with a final decision; false: only those without one. */
  hasDecision?: boolean;
}

/** Newest first; `_id` makes the order total so pages never overlap. */
export const NEWEST_FIRST: SortSpec = { timestamp: -1, _id: -1 };

/** Builds the MongoDB filter for a history query (one condition per criterion, joined with $and). */
export function decisionListFilter(query: DecisionListQuery): Filter {
  const conditions: Filter[] = [];
  // $eq compares literally (a value can never act as an operator); null also matches a missing user_id.
  if (query.userId !== undefined) conditions.push({ user_id: { $eq: query.userId } });
  if (query.category) {
    conditions.push({ $or: [{ categories: query.category }, { final_decision: query.category }] });
  }
  if (query.question) {
    conditions.push({ question: { $regex: escapeRegex(query.question), $options: "i" } });
  }
  const timestamp: Filter = {};
  if (query.dateFrom) timestamp.$gte = query.dateFrom;
  if (query.dateTo) timestamp.$lte = query.dateTo;
  if (Object.keys(timestamp).length > 0) conditions.push({ timestamp });
  if (query.hasDecision !== undefined) {
    conditions.push({ final_decision: query.hasDecision ? { $ne: null } : null });
  }
  if (conditions.length === 0) return {};
  return conditions.length === 1 ? (conditions[0] as Filter) : { $and: conditions };
}

export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

export function assertPaging(query: Pick<DecisionListQuery, "limit" | "offset">): void {
  if (!Number.isInteger(query.limit) || query.limit < 0) throw new RangeError(`limit must be a non-negative integer, got ${query.limit}`);
  if (!Number.isInteger(query.offset) || query.offset < 0) throw new RangeError(`offset must be a non-negative integer, got ${query.offset}`);
}
