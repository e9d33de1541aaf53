import express, { type RequestHandler } from "express";
import { BODY_MESSAGES, MAX_JSON_DEPTH, MAX_JSON_VALUES, SMALL_BODY_LIMIT_BYTES } from "@sd/contracts";
import { HttpError } from "./errors";
import { countBytesRead, recordBodyBytes } from "./rate-limit";


const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/**
 * Counts a JSON body's nesting and values as its bytes arrive, and throws at the first limit
 * passed: a body of millions of small objects is refused after its first kilobytes, before it is
 * buffered or parsed (JSON.parse of such a body stalls the event loop for seconds). Values are
 * counted by the commas and brackets outside strings (strings are skipped with indexOf); whatever
 * is not valid JSON is left to JSON.parse.
 */
export class JsonShapeScanner {
  #depth = 0;
  #values = 0;
  #inString = false;
  /** The previous chunk ended inside a string on a backslash: this one starts with the escaped character. */
  #escapePending = false;

  scan(chunk: Buffer): void {
    let i = 0;
    // Where the next backslash of this chunk is (-1: none left), found once and reused while i has not passed it.
    let backslash = -2;
    while (i < chunk.length) {
      if (this.#inString) {
        if (this.#escapePending) {
          this.#escapePending = false;
          i++;
          continue;
        }
        if (backslash !== -1 && backslash < i) backslash = chunk.indexOf(BACKSLASH, i);
        const quote = chunk.indexOf(QUOTE, i);
        if (backslash !== -1 && (quote === -1 || backslash < quote)) {
          if (backslash + 1 >= chunk.length) this.#escapePending = true;
          i = backslash + 2;
        } else if (quote !== -1) {
          this.#inString = false;
          i = quote + 1;
        } else {
          i = chunk.length;
        }
        continue;
      }
      const byte = chunk[i++];
      if (byte === QUOTE) {
        this.#inString = true;
      } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
        if (++this.#depth > MAX_JSON_DEPTH) throw new HttpError(400, BODY_MESSAGES.tooDeep);
        if (++this.#values > MAX_JSON_VALUES) throw new HttpError(413, BODY_MESSAGES.tooManyValues);
      } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
        this.#depth--;
      } else if (byte === COMMA && ++this.#values > MAX_JSON_VALUES) {
        throw new HttpError(413, BODY_MESSAGES.tooManyValues);
      }
    }
  }
}

/** The encoding as a refusal names it: a token such as gzip, never whatever else a client put there. */
const encodingName = (header: string | undefined) => {
  const encoding = (header ?? "").trim().toLowerCase();
  return /^[a-z0-9-]{1,20}$/.test(encoding) ? encoding : "not identity";
};

const isIdentity = (encoding: string | undefined) => encoding === undefined || ["", "identity"].includes(encoding.trim().toLowerCase());

export interface JsonBodyOptions {
  /** Largest body, in bytes. */
  limit: number;
  /** The 413's `detail` for a larger body (default: names the limit). */
  tooLarge?: string;
}

/**
 * A route's JSON body parser (express.json), to put after every check that can refuse the request
 * without its body (auth, keys, rate limits): nothing reads a body before then, so a refused or
 * unknown request costs no parsing. Compressed bodies are refused (415) without being read, the
 * size is bounded by `limit` and the shape by `JsonShapeScanner`; a body without a Content-Length
 * is counted by the per-IP byte budget once read (see `perIpByteLimit`).
 */
export function jsonBody({ limit, tooLarge = BODY_MESSAGES.tooLarge(limit) }: JsonBodyOptions): RequestHandler {
  const parse = express.json({ limit, inflate: false, verify: recordBodyBytes });
  return (req, res, next) => {
    let settled = false;
    const settle = (error?: unknown) => {
      if (settled) return;
      settled = true;
      req.off("data", scan);
      if (error === undefined) return countBytesRead(req, res, next);
      const type = (error as { type?: string }).type;
      if (type === "encoding.unsupported") return next(new HttpError(415, BODY_MESSAGES.compressed(encodingName(req.headers["content-encoding"]))));
      if (type === "entity.too.large") return next(new HttpError(413, tooLarge));
      next(error);
    };
    // Beside the parser's own reading (no second copy of the body): a refusal stops reading at once.
    const scanner = new JsonShapeScanner();
    const scan = (chunk: Buffer) => {
      try {
        scanner.scan(chunk);
      } catch (refusal) {
        // The rest of a body still arriving is not read (its connection closes after the answer);
        // one already received is let through to the parser, which then ends as usual.
        if (req.complete) req.resume();
        else req.pause();
        settle(refusal);
      }
    };
    // Only a body the parser will read: listening to another would start reading it.
    if (isIdentity(req.headers["content-encoding"]) && req.is("application/json")) req.on("data", scan);
    parse(req, res, settle);
  };
}

/** The body parser of the routes without images. */
export const smallJsonBody: RequestHandler = jsonBody({ limit: SMALL_BODY_LIMIT_BYTES });

/** For routes that read the raw body themselves (multipart forms, the queue board): a compressed one is refused unread. */
export const refuseCompressedBody: RequestHandler = (req, _res, next) => {
  const encoding = req.headers["content-encoding"];
  next(isIdentity(encoding) ? undefined : new HttpError(415, BODY_MESSAGES.compressed(encodingName(encoding))));
};
