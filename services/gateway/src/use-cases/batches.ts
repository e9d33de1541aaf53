import { randomUUID } from "node:crypto";
import {
  BATCH_LIMITS,
  BATCH_MESSAGES,
  toBatch,
  type Batch,
  type BatchCreated,
  type BatchList,
  type BatchListQuery,
  type BatchResultLine,
  type DecisionRequest,
} from "@sd/contracts";
import type { BatchLineOutcome, BatchRecord, NewBatchLine, Store } from "@sd/store";
import { BatchLineParser, type ParsedBatch } from "./batch-lines";
import { DomainError } from "./errors";
import { toV1EnsembleResponse } from "./v1-answer";

/** Starts the runner on a stored batch (libs/queue's BatchQueue). */
export interface BatchStarter {
  start(batchId: string): Promise<void>;
}

/** Who sends a batch: the API key and its owner. */
export interface BatchOwner {
  userId: string;
  apiKeyId: string;
}

export interface BatchUseCaseDeps {
  store: Store;
  /** /v1/ensemble's checks of a request's panel and judge (unknown models are the client's mistake). */
  checkEnsemble(request: DecisionRequest): void;
  /** The owner's monthly quota: a batch's decisions are counted when it is accepted, at once. */
  quota: { consumeMany(userId: string, count: number, at?: Date): Promise<{ counted: true } | { counted: false; remaining: number }> };
  /** The key's calls this month, as the settings page shows them. */
  keyUsage: { countRequests(apiKeyId: string, count: number, at?: Date): Promise<void> };
  /** Seconds until the quota starts again, for the refusal's Retry-After. */
  secondsUntilNextMonth(now: Date): number;
  /** Hands an accepted batch to the batch runner (libs/queue's BatchQueue). */
  runner: BatchStarter;
  now?: () => Date;
}

/** A batch refused for its lines: the route answers 422 with the invalid lines (the first 100 listed) and their count. */
export class BatchRejectedError extends DomainError {
  constructor(
    message: string,
    readonly errors: { line: number; custom_id?: string; message: string }[],
    readonly errorCount: number,
  ) {
    super("invalid", message);
  }
}

const DAY_MS = 24 * 3600_000;
/** Completed lines whose decisions are read at once while results stream. */
const RESULT_CHUNK = 100;

const listed = (invalid: ParsedBatch["invalid"]) =>
  invalid.slice(0, BATCH_LIMITS.maxErrorsShown).map(({ line, custom_id, message }) => ({ line, ...(custom_id !== undefined ? { custom_id } : {}), message }));

/** Batches of API decisions: accepted here, run by the batch runner, read back as results. */
export class BatchUseCases {
  private readonly now: () => Date;

  constructor(private readonly deps: BatchUseCaseDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  /** A parser for a body's lines, with /v1/ensemble's checks. */
  lineParser(): BatchLineParser {
    return new BatchLineParser((request) => this.deps.checkEnsemble(request));
  }

  /**
   * Stores a parsed batch and starts it. Any invalid line refuses it all unless `skipInvalid`; the
   * owner's quota must cover every decision (the POST itself counted as the first). The lines are
   * written before the batch record: a crash in between leaves no batch anyone can see.
   */
  async create(owner: BatchOwner, parsed: ParsedBatch, skipInvalid: boolean): Promise<BatchCreated> {
    const { valid, invalid } = parsed;
    if (invalid.length > 0 && (!skipInvalid || valid.length === 0)) {
      const detail = valid.length === 0 && skipInvalid ? BATCH_MESSAGES.nothingValid : BATCH_MESSAGES.invalidLines(invalid.length, BATCH_LIMITS.maxErrorsShown);
      throw new BatchRejectedError(detail, listed(invalid), invalid.length);
    }
    const now = this.now();
    // The POST was counted by the key's access check: it stands for the first decision.
    const quota = await this.deps.quota.consumeMany(owner.userId, valid.length - 1, now);
    if (!quota.counted) {
      throw new DomainError("rate-limited", BATCH_MESSAGES.quotaExceeded(valid.length, quota.remaining + 1), {
        retryAfterSeconds: this.deps.secondsUntilNextMonth(now),
      });
    }
    await this.deps.keyUsage.countRequests(owner.apiKeyId, valid.length - 1, now);

    const id = `batch_${randomUUID()}`;
    const expiresAt = new Date(now.getTime() + BATCH_LIMITS.retentionDays * DAY_MS);
    const lines: NewBatchLine[] = [
      ...valid.map(({ line, custom_id, request }): NewBatchLine => ({ line, custom_id, request, status: "pending", decision_id: randomUUID(), error: null })),
      ...invalid.map(({ line, custom_id, message }): NewBatchLine => ({ line, custom_id: custom_id ?? "", request: null, status: "skipped", decision_id: randomUUID(), error: message })),
    ].sort((a, b) => a.line - b.line);
    await this.deps.store.batchLines.insertMany(id, expiresAt, lines);
    const record: BatchRecord = {
      id,
      user_id: owner.userId,
      api_key_id: owner.apiKeyId,
      status: "in_progress",
      total: valid.length,
      completed: 0,
      failed: 0,
      skipped: invalid.length,
      created_at: now,
      completed_at: null,
      cancel_requested: false,
      expires_at: expiresAt,
    };
    await this.deps.store.batches.create(record);
    await this.deps.runner.start(id);
    return { ...toBatch(record), skipped: { count: invalid.length, errors: listed(invalid) } };
  }

  async get(id: string, userId: string): Promise<Batch> {
    return toBatch(await this.owned(id, userId));
  }

  async list(userId: string, { limit, offset }: BatchListQuery): Promise<BatchList> {
    const { batches, total } = await this.deps.store.batches.listForUser(userId, { limit, offset });
    return { object: "list", data: batches.map(toBatch), total, limit, offset };
  }

  /**
   * Stops a batch: its pending lines are cancelled at once, the running ones finish (the runner
   * then ends the batch as cancelled). A finished batch cannot be cancelled (409).
   */
  async cancel(id: string, userId: string): Promise<Batch> {
    const { store } = this.deps;
    const request = await store.batches.requestCancel(id, userId);
    if (request.kind === "not-found") throw new DomainError("not-found", BATCH_MESSAGES.notFound);
    if (request.kind === "finished") throw new DomainError("conflict", BATCH_MESSAGES.alreadyFinished(request.batch.status));
    const cancelled = await store.batchLines.cancelPending(id, BATCH_MESSAGES.cancelled);
    // Nothing runs any more: the batch ends now (else the runner ends it when its last line is done).
    // setStatus moves an unfinished batch only, so the runner ending it at the same time is harmless.
    if ((await store.batchLines.countByStatus(id, "running")) === 0 && (await store.batchLines.countByStatus(id, "pending")) === 0) {
      const [completed, failed] = await Promise.all([store.batchLines.countByStatus(id, "completed"), store.batchLines.countByStatus(id, "failed")]);
      const status = cancelled > 0 || (await store.batchLines.countByStatus(id, "cancelled")) > 0 ? "cancelled" : "completed";
      await store.batches.setStatus(id, status, this.now(), { completed, failed });
    }
    return toBatch(await this.owned(id, userId));
  }

  /** The batch's results, one line per input line in input order, read from the store as they are written out. */
  async results(id: string, userId: string): Promise<AsyncIterable<BatchResultLine>> {
    await this.owned(id, userId);
    const { store } = this.deps;
    const outcomes = store.batchLines.streamOutcomes(id);
    const toResults = async (chunk: BatchLineOutcome[]): Promise<BatchResultLine[]> => {
      const decisions = await Promise.all(chunk.map((line) => (line.status === "completed" ? store.decisions.findOwned(line.decision_id, userId) : null)));
      return chunk.map((line, index) => resultLine(line, decisions[index] ? toV1EnsembleResponse(decisions[index]) : null));
    };
    return (async function* () {
      let chunk: BatchLineOutcome[] = [];
      for await (const line of outcomes) {
        chunk.push(line);
        if (chunk.length >= RESULT_CHUNK) {
          yield* await toResults(chunk);
          chunk = [];
        }
      }
      if (chunk.length > 0) yield* await toResults(chunk);
    })();
  }

  /** Deletes the batches and lines past their 30 days (batches first: a batch is never seen without its lines). */
  async purgeExpired(): Promise<{ batches: number; lines: number }> {
    const now = this.now();
    const batches = await this.deps.store.batches.deleteExpired(now);
    const lines = await this.deps.store.batchLines.deleteExpired(now);
    return { batches, lines };
  }

  private async owned(id: string, userId: string): Promise<BatchRecord> {
    const batch = await this.deps.store.batches.findOwned(id, userId);
    // Another user's batch and an unknown id get the same answer.
    if (!batch) throw new DomainError("not-found", BATCH_MESSAGES.notFound);
    return batch;
  }
}

function resultLine(line: BatchLineOutcome, result: BatchResultLine["result"]): BatchResultLine {
  const base = { custom_id: line.custom_id, line: line.line, decision_id: line.status === "skipped" ? null : line.decision_id };
  switch (line.status) {
    case "completed":
      // A decision deleted by its owner since: the line's outcome stands, its result is gone.
      return { ...base, status: "completed", result, error: null };
    case "failed":
    case "cancelled":
    case "skipped":
      return { ...base, status: line.status, result: null, error: { message: line.error ?? "The decision could not be made." } };
    case "pending":
    case "running":
      return { ...base, status: "pending", result: null, error: null };
  }
}
