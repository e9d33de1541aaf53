import {
  BatchResultLineSchema,
  TERMINAL_BATCH_STATUSES,
  type Batch,
  type BatchCreated,
  type BatchLineError,
  type BatchLineInput,
  type BatchList,
  type BatchResultLine,
  type BatchStatus,
} from "@sd/contracts";
import { ENDPOINTS, endpointMethod, endpointPath } from "@sd/contracts/endpoints";
import { TimeoutError } from "./errors";
import { pause } from "./pause";
import type { Transport } from "./transport";

export type { Batch, BatchCreated, BatchLineError, BatchLineInput, BatchResultLine, BatchStatus };
/** A page of `batches.list`: newest first, and how many batches the key owner has in all (`total`). */
export type BatchPage = BatchList;

/** What `batches.create` sends: line objects (the SDK writes the JSONL), a JSONL text, or a JSONL file (a Blob or File). */
export type BatchInput = readonly BatchLineInput[] | string | Blob;

export interface BatchCreateOptions {
  /** Skip invalid lines (listed in the answer's `skipped` and in the results) instead of refusing the whole batch. */
  skipInvalid?: boolean;
  signal?: AbortSignal;
}

export interface BatchListParams {
  /** Page size, default 20, at most 100. */
  limit?: number;
  offset?: number;
  signal?: AbortSignal;
}

export interface BatchWaitOptions {
  /** Time between two polls in milliseconds (default 5000). Each poll counts as one request of the monthly quota. */
  intervalMs?: number;
  /** Give up after this many milliseconds with a TimeoutError (default 3 600 000: one hour). */
  timeoutMs?: number;
  /** Called with the batch after each poll, its `request_counts` telling how far it is. */
  onProgress?: (batch: Batch) => void;
  signal?: AbortSignal;
}

const CREATE = ENDPOINTS.createBatch;
const LIST = ENDPOINTS.listBatches;
const GET = ENDPOINTS.getBatch;
const CANCEL = ENDPOINTS.cancelBatch;
const RESULTS = ENDPOINTS.getBatchResults;

/** One JSON object per line, each ending with a newline, as the endpoint reads them. */
function toJsonl(lines: readonly BatchLineInput[]): string {
  return lines.map((line) => `${JSON.stringify(line)}\n`).join("");
}

/**
 * What `batches.list` answers: awaited, the first page (with `total`); iterated with `for await`,
 * every batch of every page, each once even when new batches shift the pages meanwhile.
 */
export class BatchListing implements PromiseLike<BatchPage>, AsyncIterable<Batch> {
  private first: Promise<BatchPage> | undefined;

  constructor(private readonly page: (offset: number | undefined) => Promise<BatchPage>, private readonly offset: number | undefined) {}

  private firstPage(): Promise<BatchPage> {
    return (this.first ??= this.page(this.offset));
  }

  then<A = BatchPage, B = never>(onFulfilled?: ((page: BatchPage) => A | PromiseLike<A>) | null, onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<A | B> {
    return this.firstPage().then(onFulfilled, onRejected);
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Batch, void, undefined> {
    // Newest first with offsets: a batch created while paging pushes older ones to the next page, where they would come twice.
    const seen = new Set<string>();
    let page = await this.firstPage();
    for (;;) {
      for (const batch of page.data) {
        if (seen.has(batch.id)) continue;
        seen.add(batch.id);
        yield batch;
      }
      const next = page.offset + page.data.length;
      if (page.data.length === 0 || next >= page.total) return;
      page = await this.page(next);
    }
  }
}

/**
 * Batches (`client.batches`): up to 10,000 decisions sent as one JSONL file, run in the background,
 * their results read back in the order they were sent.
 */
export class Batches {
  constructor(private readonly transport: Transport) {}

  /**
   * Sends a batch. Every line is checked first: one invalid line refuses the whole batch with a
   * `BatchValidationError` listing the lines (unless `skipInvalid`). Each decision counts as one
   * request of the monthly quota, counted at once: a larger batch than what remains is a `QuotaExceededError`.
   */
  async create(input: BatchInput, options: BatchCreateOptions = {}): Promise<BatchCreated> {
    const data = typeof input === "string" || (typeof Blob !== "undefined" && input instanceof Blob) ? input : toJsonl(input as readonly BatchLineInput[]);
    const path = endpointPath(CREATE, {}, { skip_invalid: options.skipInvalid ? "true" : undefined });
    const { body } = await this.transport.request(endpointMethod(CREATE), path, CREATE.responses[202].body.schema, {
      content: { data, type: CREATE.body.contentType },
      signal: options.signal,
    });
    return body;
  }

  /** A batch's state: `in_progress` while its lines run, then `completed` (or `cancelled`, `failed`). */
  async get(id: string, options: { signal?: AbortSignal } = {}): Promise<Batch> {
    const { body } = await this.transport.request(endpointMethod(GET), endpointPath(GET, { id }), GET.responses[200].body.schema, options);
    return body;
  }

  /**
   * The key owner's batches, newest first. `await` it for one page, or iterate every batch:
   *
   * ```ts
   * for await (const batch of client.batches.list()) console.log(batch.id, batch.status);
   * ```
   */
  list(params: BatchListParams = {}): BatchListing {
    const { limit, signal } = params;
    const page = async (offset: number | undefined) => {
      const path = endpointPath(LIST, {}, { limit, offset });
      return (await this.transport.request(endpointMethod(LIST), path, LIST.responses[200].body.schema, { signal })).body;
    };
    return new BatchListing(page, params.offset);
  }

  /** Stops a batch: lines not started are cancelled, running ones finish. A finished batch is an ApiError (409). */
  async cancel(id: string, options: { signal?: AbortSignal } = {}): Promise<Batch> {
    const { body } = await this.transport.request(endpointMethod(CANCEL), endpointPath(CANCEL, { id }), CANCEL.responses[200].body.schema, options);
    return body;
  }

  /**
   * The results, one per line of the batch in the order sent, read as the server streams them
   * (a 10,000-line file is never held whole). A line still `pending` is not decided yet: read them
   * once `waitForCompletion` answers.
   *
   * ```ts
   * for await (const line of client.batches.results(id)) console.log(line.custom_id, line.result?.ensemble_decision);
   * ```
   */
  results(id: string, options: { signal?: AbortSignal } = {}): AsyncIterable<BatchResultLine> {
    return this.transport.jsonLines(endpointMethod(RESULTS), endpointPath(RESULTS, { id }), BatchResultLineSchema, options);
  }

  /** Polls a batch until it is completed, cancelled or failed, and answers it then. */
  async waitForCompletion(id: string, options: BatchWaitOptions = {}): Promise<Batch> {
    const intervalMs = options.intervalMs ?? 5000;
    const deadline = Date.now() + (options.timeoutMs ?? 3_600_000);
    for (;;) {
      const batch = await this.get(id, { signal: options.signal });
      options.onProgress?.(batch);
      if (TERMINAL_BATCH_STATUSES.includes(batch.status)) return batch;
      if (Date.now() + intervalMs > deadline) {
        const { completed, failed, total } = batch.request_counts;
        throw new TimeoutError(`Batch ${id} was still ${batch.status} (${completed + failed} of ${total} lines done) when waitForCompletion gave up.`);
      }
      await pause(intervalMs, options.signal);
    }
  }
}
