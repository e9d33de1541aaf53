import { z } from "zod";
import { DecisionHistoryItemSchema, EXPORT_CSV_COLUMNS, HistoryExportQuerySchema, type ExportFormat } from "../index";
import { exampleHistoryItem } from "./examples";
import { error, json, one, unauthorized } from "./shared";
import { defineEndpoint, type DocumentedBody } from "./define";

// ---------------------------------------------------------------- history export

const attachment = (format: ExportFormat) =>
  z.object({
    "Content-Disposition": z.string().meta({ description: "Always a download, named after the day of the export (UTC).", example: `attachment; filename="decisions-2025-09-08.${format}"` }),
  });

const EXAMPLE_CSV = `${EXPORT_CSV_COLUMNS.join(",")}\r\n${exampleHistoryItem.id},${exampleHistoryItem.timestamp},${exampleHistoryItem.question},"[""Yes"",""No"",""Wait until Monday""]",Wait until Monday,3,...\r\n`;

const bodies: { [F in ExportFormat]: DocumentedBody } = {
  csv: { schema: z.string(), contentType: "text/csv", examples: one("One decision (cut short)", EXAMPLE_CSV) },
  json: json(z.array(DecisionHistoryItemSchema), one("One decision", [exampleHistoryItem])),
};

const descriptions: Record<ExportFormat, string> = {
  csv:
    `RFC 4180 CSV (UTF-8, CRLF), one row per decision with the columns ${EXPORT_CSV_COLUMNS.join(", ")}. Lists and per-model maps are JSON text in their cell. ` +
    "A text cell starting with =, +, -, @, a tab or a carriage return is prefixed with ' so a spreadsheet never runs it as a formula.",
  json: "A JSON array of decisions, each as the history list answers it.",
};

/** One endpoint per format (each documents its own media type); both stream the decisions from the store, newest first. */
const exportEndpoint = <const F extends ExportFormat>(format: F, operationId: `exportMyDecisions${Capitalize<F>}`) =>
  defineEndpoint({
    method: "get",
    path: `/api/exports/decisions.${format}`,
    tag: "history",
    operationId,
    summary: `Export my decisions as ${format.toUpperCase()}`,
    description: `Every decision of the signed-in user that matches the history list's filters (no paging), newest first, streamed as it is read. ${descriptions[format]}`,
    access: "bearer",
    query: HistoryExportQuerySchema,
    responses: {
      200: { description: "The download.", headers: attachment(format), body: bodies[format] },
      400: error("A filter is invalid.", one("Bad date", { detail: "dateFrom must be a date (YYYY-MM-DD) or an ISO 8601 date-time." })),
      401: unauthorized,
    },
  });

export const exportEndpoints = [exportEndpoint("csv", "exportMyDecisionsCsv"), exportEndpoint("json", "exportMyDecisionsJson")] as const;
