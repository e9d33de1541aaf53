import { z } from "zod";
import { DATES_IN_ORDER, datesInOrder, DecisionHistoryQuerySchema } from "./history";

export const EXPORT_FORMATS = ["csv", "json"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The media type of each export format. */
export const EXPORT_MEDIA_TYPES: Readonly<Record<ExportFormat, string>> = { csv: "text/csv; charset=utf-8", json: "application/json; charset=utf-8" };

const { limit: _limit, offset: _offset, ...filters } = DecisionHistoryQuerySchema.shape;

/**
 * Query of GET /api/exports/decisions.{csv,json}: the history list's filters (the same names and
 * rules); no paging, since the export is every matching decision.
 */
export const HistoryExportQuerySchema = z.object(filters).refine(datesInOrder, DATES_IN_ORDER);
export type HistoryExportQuery = z.output<typeof HistoryExportQuerySchema>;
export type HistoryExportQueryInput = z.input<typeof HistoryExportQuerySchema>;

/** The CSV's columns, in order (maps and lists are JSON text in their cell). */
export const EXPORT_CSV_COLUMNS = [
  "id",
  "timestamp",
  "question",
  "categories",
  "final_decision",
  "total_votes",
  "vote_counts",
  "context_explanation",
  "individual_responses",
  "confidence_scores",
  "error_details",
  "model_versions",
  "processing_time_ms",
  "ensemble_mode",
  "cost_usd",
  "image_count",
] as const;

/** The attachment's file name, e.g. `decisions-2025-09-08.csv` (the day of the export, UTC). */
export function exportFileName(format: ExportFormat, at: Date): string {
  return `decisions-${at.toISOString().slice(0, 10)}.${format}`;
}
