import { BATCH_LIMITS, BATCH_MESSAGES, BatchLineInputSchema, IMAGE_TOO_LARGE, MESSAGES, type BatchLineError, type DecisionRequest } from "@sd/contracts";
import type { z } from "zod";
import { JsonShapeScanner } from "../http/json-body";
import { DomainError } from "./errors";

/** A line that passed every check, as its decision will be requested. */
export interface ValidBatchLine {
  line: number;
  custom_id: string;
  request: DecisionRequest;
}

/** A line refused, with the text a client reads (the same as /v1/ensemble's for the same field). */
export interface InvalidBatchLine extends BatchLineError {
  custom_id: string | undefined;
}

/** What a batch's body held, line by line. */
export interface ParsedBatch {
  valid: ValidBatchLine[];
  invalid: InvalidBatchLine[];
}

/** /v1/ensemble's text for a schema refusal (see http/errors.ts `fromValidation`), so both endpoints word a field alike. */
function messageOf(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "Invalid request.";
  if (issue.code === "custom" && (issue.params as { reason?: string } | undefined)?.reason === IMAGE_TOO_LARGE) return MESSAGES.imagesTooLarge;
  return issue.message;
}

/**
 * Checks a batch's lines one at a time as they are read, keeping each valid line's request and
 * each invalid line's error, so the body is never held as text. Blank lines are skipped (a file
 * may end with one) but keep their numbers, so `line` is the line of the file the client sent.
 */
export class BatchLineParser {
  readonly #valid: ValidBatchLine[] = [];
  readonly #invalid: InvalidBatchLine[] = [];
  /** custom_id -> the line it was first seen on. */
  readonly #seen = new Map<string, number>();
  #lineNumber = 0;

  constructor(
    /** The panel and judge checks of /v1/ensemble (unknown models), run on each line. */
    private readonly checkEnsemble: (request: DecisionRequest) => void,
  ) {}

  /** Adds the next line of the body (without its line break). */
  push(text: Buffer): void {
    const line = ++this.#lineNumber;
    if (isBlank(text)) return;
    if (this.#valid.length + this.#invalid.length >= BATCH_LIMITS.maxLines) throw new DomainError("too-large", BATCH_MESSAGES.tooManyLines);
    let value: unknown;
    try {
      // Counted before parsing: a line of millions of tiny values would stall JSON.parse.
      new JsonShapeScanner().scan(text);
      value = JSON.parse(text.toString("utf8"));
    } catch (error) {
      // JSON.parse's own complaint is not worth showing; the scanner's (too deep, too many values) is.
      this.#invalid.push({ line, custom_id: undefined, message: error instanceof SyntaxError ? BATCH_MESSAGES.notJson : (error as Error).message });
      return;
    }
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      this.#invalid.push({ line, custom_id: undefined, message: BATCH_MESSAGES.notJsonObject });
      return;
    }
    const rawId = (value as { custom_id?: unknown }).custom_id;
    const customId = typeof rawId === "string" && rawId.length > 0 && rawId.length <= BATCH_LIMITS.maxCustomIdLength ? rawId : undefined;
    const refuse = (message: string) => void this.#invalid.push({ line, custom_id: customId, message });
    const firstLine = customId === undefined ? undefined : this.#seen.get(customId);
    if (customId !== undefined && firstLine === undefined) this.#seen.set(customId, line);
    const parsed = BatchLineInputSchema.safeParse(value);
    if (!parsed.success) return refuse(messageOf(parsed.error));
    if (firstLine !== undefined) return refuse(BATCH_MESSAGES.duplicateCustomId(parsed.data.custom_id, firstLine));
    const { custom_id, prompt, valid_responses, images, mode, panel } = parsed.data;
    const request: DecisionRequest = {
      question: prompt,
      categories: valid_responses,
      images,
      ...(mode !== undefined ? { ensemble_mode: mode } : {}),
      ...(panel !== undefined ? { models: panel } : {}),
    };
    try {
      this.checkEnsemble(request);
    } catch (error) {
      if (error instanceof DomainError && error.kind === "invalid") return refuse(error.message);
      throw error;
    }
    this.#valid.push({ line, custom_id, request });
  }

  /** Every line read; refuses a body with no line at all. */
  finish(): ParsedBatch {
    if (this.#valid.length + this.#invalid.length === 0) throw new DomainError("invalid", BATCH_MESSAGES.emptyBody);
    return { valid: this.#valid, invalid: this.#invalid };
  }
}

function isBlank(text: Buffer): boolean {
  for (const byte of text) if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0d) return false;
  return true;
}

/**
 * Splits a byte stream into lines (LF, with a CR before it dropped by the caller's blank check or
 * the JSON parser's whitespace rules), at most `maxBytes` in all: past it, a 413.
 * Each line is handed over as soon as its end arrives, so only one line is held at a time.
 */
export async function readLines(stream: AsyncIterable<Buffer | string>, maxBytes: number, onLine: (line: Buffer) => void): Promise<void> {
  let total = 0;
  let parts: Buffer[] = [];
  for await (const raw of stream) {
    const chunk = typeof raw === "string" ? Buffer.from(raw, "utf8") : raw;
    total += chunk.length;
    if (total > maxBytes) throw new DomainError("too-large", BATCH_MESSAGES.tooLarge(maxBytes));
    let start = 0;
    for (let end = chunk.indexOf(0x0a, start); end !== -1; end = chunk.indexOf(0x0a, start)) {
      parts.push(chunk.subarray(start, end));
      onLine(parts.length === 1 ? parts[0]! : Buffer.concat(parts));
      parts = [];
      start = end + 1;
    }
    if (start < chunk.length) parts.push(chunk.subarray(start));
  }
  if (parts.length > 0) onLine(Buffer.concat(parts));
}
