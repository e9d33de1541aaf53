import type { BaseDocument } from "../../collection";
import { decodeEjson, encodeEjson } from "./ejson";

/**
 * One line of a collection journal (`<collection>.journal.jsonl`), Extended JSON:
 * `{"op":"put","doc":{...}}` stores the whole document after an insert or update;
 * `{"op":"del","ids":["..."]}` removes documents. Replaying the lines in order rebuilds the collection.
 */
export type JournalEntry = { op: "put"; doc: BaseDocument } | { op: "del"; ids: string[] };

export function encodeJournalLine(entry: JournalEntry): string {
  return `${encodeEjson(entry)}\n`;
}

/** Parses one line; null when it is not a well-formed entry. */
export function decodeJournalLine(line: string): JournalEntry | null {
  let value: unknown;
  try {
    value = decodeEjson(line);
  } catch {
    return null;
  }
  return isJournalEntry(value) ? value : null;
}

function isJournalEntry(value: unknown): value is JournalEntry {
  if (typeof value !== "object" || value === null || !("op" in value)) return false;
  if (value.op === "put") {
    return "doc" in value && typeof value.doc === "object" && value.doc !== null && "_id" in value.doc && typeof value.doc._id === "string";
  }
  if (value.op === "del") {
    return "ids" in value && Array.isArray(value.ids) && value.ids.every((id) => typeof id === "string");
  }
  return false;
}
