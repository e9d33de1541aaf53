import type { Request, RequestHandler, Response, Router } from "express";
import type { Readable } from "node:stream";
import multer from "multer";
import { BATCH_MESSAGES, BatchCreateQuerySchema, type BatchRejected } from "@sd/contracts";
import { ENDPOINTS } from "@sd/contracts/endpoints";
import { currentApiKey } from "../api-keys/middleware";
import { EndpointRouter } from "../http/endpoint-router";
import { sendJsonl } from "../http/download-stream";
import { fromValidation, HttpError } from "../http/errors";
import { refuseCompressedBody } from "../http/json-body";
import { readLines, type BatchLineParser, type ParsedBatch } from "../use-cases/batch-lines";
import { BatchRejectedError, type BatchUseCases } from "../use-cases/batches";
import { DomainError } from "../use-cases/errors";

export interface BatchRouteDeps {
  batches: BatchUseCases;
  /** SD-API-KEY authentication, the per-key rate limit and the monthly quota (see `keyAccess`). */
  keyAccess: RequestHandler;
  /** The key's monthly spend limit (402), before the body is read. */
  spendLimit: RequestHandler;
  /** BATCH_MAX_BYTES. */
  maxBytes: number;
}

const FILE_FIELD = "file";
const JSONL_TYPES = ["application/jsonl", "application/x-ndjson"];
/** A multipart form's boundaries and its few fields around the file. */
const FORM_OVERHEAD_BYTES = 64 * 1024;
const CUT_SHORT = "The batch's body was cut short: send the whole file again.";
const MALFORMED_FORM = `The form data is malformed or incomplete: send the batch again, with the JSONL file in the field \`${FILE_FIELD}\`.`;

/** The handler reads the body itself, line by line: nothing before it may start reading. */
const bodyReadByHandler: RequestHandler = (_req, _res, next) => next();

/** Refuses a body whose declared length is past the limit, before reading any of it. */
function refuseDeclaredTooLarge(req: Request, limit: number, maxBytes: number): void {
  const length = req.headers["content-length"];
  if (length !== undefined && /^\d+$/.test(length) && Number(length) > limit) throw new HttpError(413, BATCH_MESSAGES.tooLarge(maxBytes));
}

/** The body's lines, read off the request as they arrive (never held whole). */
async function readJsonl(req: Request, parser: BatchLineParser, maxBytes: number): Promise<ParsedBatch> {
  refuseDeclaredTooLarge(req, maxBytes, maxBytes);
  try {
    // Not destroyed when a refusal stops the loop: the answer must still reach the client.
    await readLines(req.iterator({ destroyOnReturn: false }), maxBytes, (line) => parser.push(line));
  } catch (error) {
    if (error instanceof HttpError || error instanceof DomainError) throw error;
    // The client went away or the stream broke mid-body: its mistake, not an error of ours to log.
    throw new HttpError(400, CUT_SHORT);
  }
  return parser.finish();
}

function fromUploadError(error: unknown, maxBytes: number): unknown {
  // Our own refusals from reading the file (too many lines, too large) keep their status.
  if (error instanceof HttpError || error instanceof DomainError) return error;
  if (!(error instanceof multer.MulterError)) return new HttpError(400, MALFORMED_FORM);
  switch (error.code) {
    case "LIMIT_FILE_SIZE":
      return new HttpError(413, BATCH_MESSAGES.tooLarge(maxBytes));
    case "LIMIT_UNEXPECTED_FILE":
    case "LIMIT_FILE_COUNT":
      return new HttpError(400, `Send one file, in the field \`${FILE_FIELD}\`.`);
    default:
      return new HttpError(400, `Invalid form data: ${error.message}.`);
  }
}

/**
 * A multipart form's file, read line by line as busboy hands it over (a storage engine of our own:
 * multer's memory storage would hold the whole file first), and its `skip_invalid` field.
 */
async function readForm(req: Request, res: Response, parser: BatchLineParser, maxBytes: number): Promise<{ parsed: ParsedBatch; skipInvalid: string | undefined }> {
  refuseDeclaredTooLarge(req, maxBytes + FORM_OVERHEAD_BYTES, maxBytes);
  let received = false;
  const storage: multer.StorageEngine = {
    _handleFile(_req, file, done) {
      received = true;
      const stream = file.stream as Readable;
      readLines(stream.iterator({ destroyOnReturn: false }), maxBytes, (line) => parser.push(line)).then(
        () => done(null, {}),
        (error: unknown) => {
          // Read off the rest, so busboy can finish the form and multer can answer.
          stream.resume();
          done(error as Error);
        },
      );
    },
    _removeFile(_req, _file, done) {
      done(null);
    },
  };
  const upload = multer({ storage, limits: { fileSize: maxBytes, files: 1, fields: 5, parts: 6, fieldSize: 1024 } }).single(FILE_FIELD);
  await new Promise<void>((resolve, reject) => upload(req, res, (error?: unknown) => (error === undefined ? resolve() : reject(fromUploadError(error, maxBytes)))));
  if (!received) throw new HttpError(400, BATCH_MESSAGES.fileRequired);
  const field = (req.body as Record<string, unknown> | undefined)?.skip_invalid;
  if (field !== undefined && typeof field !== "string") throw new HttpError(400, "skip_invalid must be true or false.");
  const checked = BatchCreateQuerySchema.safeParse({ skip_invalid: field });
  if (!checked.success) throw fromValidation(checked.error);
  return { parsed: parser.finish(), skipInvalid: checked.data.skip_invalid };
}

/** /v1/batches (SD-API-KEY): send a batch, follow it, cancel it, read its results. */
export function batchRoutes({ batches, keyAccess, spendLimit, maxBytes }: BatchRouteDeps): Router {
  return new EndpointRouter("/v1", { "api-key": keyAccess })
    .mount(ENDPOINTS.createBatch, {
      after: [spendLimit, refuseCompressedBody],
      bodyReader: bodyReadByHandler,
      rawBody: true,
      handler: async ({ query, req, res }) => {
        const key = currentApiKey(res);
        const parser = batches.lineParser();
        let read: { parsed: ParsedBatch; skipInvalid: string | undefined };
        if (req.is(JSONL_TYPES)) read = { parsed: await readJsonl(req, parser, maxBytes), skipInvalid: undefined };
        else if (req.is("multipart/form-data")) read = await readForm(req, res, parser, maxBytes);
        else throw new HttpError(400, BATCH_MESSAGES.unsupportedType);
        const skipInvalid = (query.skip_invalid ?? read.skipInvalid) === "true";
        try {
          return { status: 202, body: await batches.create({ userId: key.user_id, apiKeyId: key.id }, read.parsed, skipInvalid) };
        } catch (error) {
          if (!(error instanceof BatchRejectedError)) throw error;
          const body: BatchRejected = { detail: error.message, errors: error.errors, error_count: error.errorCount };
          res.status(422).json(body);
        }
      },
    })
    .mount(ENDPOINTS.listBatches, {
      handler: async ({ query, res }) => ({ status: 200, body: await batches.list(currentApiKey(res).user_id, query) }),
    })
    .mount(ENDPOINTS.getBatch, {
      handler: async ({ params, res }) => ({ status: 200, body: await batches.get(params.id, currentApiKey(res).user_id) }),
    })
    .mount(ENDPOINTS.cancelBatch, {
      handler: async ({ params, res }) => ({ status: 200, body: await batches.cancel(params.id, currentApiKey(res).user_id) }),
    })
    .mount(ENDPOINTS.getBatchResults, {
      handler: async ({ params, res }) => sendJsonl(res, await batches.results(params.id, currentApiKey(res).user_id)),
    }).router;
}
