import { EXPORT_CSV_COLUMNS, toDecisionHistoryItem, type DecisionHistoryItem, type ExportFormat, type HistoryExportQuery, type StoredDecision } from "@sd/contracts";
import type { Store } from "@sd/store";

/** Rows are written out in chunks of about this many characters (one socket write each, not one per row). */
const CHUNK_CHARS = 64 * 1024;

/** A spreadsheet runs a cell starting with one of these as a formula (OWASP "CSV injection"). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV field (RFC 4180): quoted when it holds a quote, comma or line break, quotes doubled; a
 * text starting like a formula gets a leading ' so a spreadsheet shows it as text.
 */
export function csvField(value: string | number | null): string {
  if (value === null) return "";
  if (typeof value === "number") return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

type Column = (typeof EXPORT_CSV_COLUMNS)[number];

/** Each column's cell of a decision: lists and per-model maps as JSON text. */
const CELLS: { readonly [C in Column]: (item: DecisionHistoryItem) => string | number | null } = {
  id: (d) => d.id,
  timestamp: (d) => d.timestamp,
  question: (d) => d.question,
  categories: (d) => JSON.stringify(d.categories),
  final_decision: (d) => d.final_decision,
  total_votes: (d) => d.total_votes,
  vote_counts: (d) => JSON.stringify(d.vote_counts),
  context_explanation: (d) => d.context_explanation,
  individual_responses: (d) => JSON.stringify(d.individual_responses),
  confidence_scores: (d) => JSON.stringify(d.confidence_scores),
  error_details: (d) => JSON.stringify(d.error_details),
  model_versions: (d) => JSON.stringify(d.model_versions),
  processing_time_ms: (d) => d.processing_time_ms,
  ensemble_mode: (d) => d.ensemble_mode,
  cost_usd: (d) => d.cost_usd,
  image_count: (d) => d.images.length,
};

const csvRow = (fields: readonly (string | number | null)[]) => `${fields.map(csvField).join(",")}\r\n`;

/** The byte order mark, so spreadsheet programs read the file as UTF-8. */
const BOM = "\uFEFF";

/** How each format frames the decisions: what comes before, between and after them. */
const FORMATS: Readonly<Record<ExportFormat, { head: string; row(item: DecisionHistoryItem, index: number): string; tail: string }>> = {
  csv: { head: BOM + csvRow(EXPORT_CSV_COLUMNS), row: (item) => csvRow(EXPORT_CSV_COLUMNS.map((column) => CELLS[column](item))), tail: "" },
  json: { head: "[", row: (item, index) => `${index === 0 ? "\n" : ",\n"}${JSON.stringify(item)}`, tail: "\n]\n" },
};

/** Joins small texts into chunks of about `CHUNK_CHARS`, keeping their order. */
async function* chunked(parts: AsyncIterable<string>): AsyncIterable<string> {
  let chunk = "";
  for await (const part of parts) {
    chunk += part;
    if (chunk.length >= CHUNK_CHARS) {
      yield chunk;
      chunk = "";
    }
  }
  if (chunk) yield chunk;
}

/**
 * A user's filtered history as a file, written as it is read from the store's cursor: memory holds
 * one chunk, not the history, whatever its size.
 */
export class HistoryExportUseCases {
  constructor(private readonly store: Store) {}

  export(userId: string, query: HistoryExportQuery, format: ExportFormat): AsyncIterable<string> {
    const decisions: AsyncIterable<StoredDecision> = this.store.decisions.stream({ ...query, userId });
    const { head, row, tail } = FORMATS[format];
    return chunked(
      (async function* () {
        yield head;
        let index = 0;
        for await (const decision of decisions) yield row(toDecisionHistoryItem(decision), index++);
        yield tail;
      })(),
    );
  }
}
