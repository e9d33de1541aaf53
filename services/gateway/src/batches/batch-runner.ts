import { setTimeout as delay } from "node:timers/promises";
import { TERMINAL_BATCH_STATUSES, toBatch, type BatchProgressEvent, type DecisionResponse } from "@sd/contracts";
import type { BatchLineRecord, BatchRecord, Store } from "@sd/store";
import type { WebhookDispatch } from "@sd/queue";
import type { Logger } from "@sd/telemetry";
import type { DecisionService, Requester } from "../decision-service";
import { DomainError } from "../use-cases/errors";
import { Slots, Throttle } from "./limits";

/** Where the runner sends `batch.completed` (libs/queue's WebhookDispatch). */
export type BatchWebhooks = Pick<WebhookDispatch, "emit">;

export interface BatchRunnerDeps {
  store: Store;
  decisions: DecisionService;
  /** The owner's live `batch:progress` events. */
  progress: (userId: string, event: BatchProgressEvent) => void;
  /** Null while webhooks are not wired. */
  webhooks: BatchWebhooks | null;
  /** Throws DomainError("spend-limit") once the batch's key has spent its monthly limit: the lines not yet started then fail with that text. */
  assertWithinSpendLimit: (apiKeyId: string, userId: string) => Promise<void>;
  /** Decisions one batch keeps in flight (BATCH_CONCURRENCY). */
  perBatch: number;
  /** Batch decisions this gateway keeps in flight across its batches (MAX_BATCH_IN_FLIGHT). */
  total: number;
  /** How long one wait for a line's decision lasts before the runner looks again (it may queue behind interactive traffic). */
  waitMs: number;
  logger: Logger;
  /** Least time between two progress events of one batch. */
  progressIntervalMs?: number;
}

/** A line's end: completed, or failed with the reason the results show. */
type LineEnd = { status: "completed" } | { status: "failed"; error: string };

/** DomainErrors of `start` that are the line's own (it would fail every time), not a passing trouble. */
const LINE_FAULTS = new Set(["invalid", "unknown-reference", "conflict", "too-large", "spend-limit"]);
/** Passing trouble (Redis or the store away, a wait that ran out): the line is tried again after this, doubling up to the max. */
const RETRY_BASE_MS = 500;
const RETRY_MAX_MS = 15_000;
/** Pending lines read at once, per batch slot. */
const LINES_PER_SLOT = 2;

const isTerminal = (batch: BatchRecord) => TERMINAL_BATCH_STATUSES.includes(batch.status);

/**
 * Runs batches: feeds a batch's pending lines as decisions of its key's owner, at most
 * BATCH_CONCURRENCY at a time, and records each line's end once. Every line's decision id is fixed
 * when the batch is accepted, so whatever a crash interrupts, a line has at most one decision:
 * re-attached after a restart, a `running` line is read back from the store, waited for while its
 * flow is in Redis, or enqueued again under the same id (which adds nothing if it is there).
 */
export class BatchRunner {
  private readonly slots: Slots;

  constructor(private readonly deps: BatchRunnerDeps) {
    this.slots = new Slots(deps.total);
  }

  /** Runs the batch until it ends, or until `signal` aborts (its lines are then left to the next run). */
  async run(batchId: string, signal: AbortSignal): Promise<void> {
    const { store } = this.deps;
    let batch = await store.batches.findById(batchId);
    if (!batch) return;
    if (isTerminal(batch)) {
      // A run that ended the batch and crashed before telling its webhooks: tell them now (they dedupe by event id).
      await this.announceEnd(batch);
      return;
    }
    const requester = await this.requesterOf(batch);
    const progress = new Throttle<BatchRecord>(this.deps.progressIntervalMs ?? 250, (record) => this.deps.progress(record.user_id, progressOf(record)));
    const perBatch = new Slots(this.deps.perBatch);
    const inFlight = new Set<Promise<void>>();
    const launch = async (line: BatchLineRecord, fresh: boolean) => {
      await perBatch.acquire();
      await this.slots.acquire();
      const task = this.settle(batchId, line, requester, fresh, signal, progress).finally(() => {
        this.slots.release();
        perBatch.release();
        inFlight.delete(task);
      });
      inFlight.add(task);
    };

    // Lines a crashed run left running: their decisions are found, waited for or started again.
    const running = await store.batchLines.listByStatus(batchId, "running");
    if (running.length > 0) this.deps.logger.info({ batch_id: batchId, lines: running.length }, "re-attaching running batch lines");
    for (const line of running) {
      if (signal.aborted) break;
      await launch(line, false);
    }
    let after = 0;
    feeding: while (!signal.aborted) {
      batch = await store.batches.findById(batchId);
      if (!batch || batch.cancel_requested || isTerminal(batch)) break;
      const lines = await store.batchLines.nextPending(batchId, after, this.deps.perBatch * LINES_PER_SLOT);
      if (lines.length === 0) break;
      for (const line of lines) {
        after = line.line;
        await perBatch.acquire();
        perBatch.release();
        if (signal.aborted) break feeding;
        // False when the owner cancelled it meanwhile.
        if (!(await store.batchLines.setStatus(batchId, line.line, "running"))) continue;
        await launch(line, true);
      }
    }
    // A stop does not wait for the decisions in flight: the next run re-attaches their lines.
    await Promise.race([Promise.all(inFlight), aborted(signal)]);
    if (signal.aborted) return;
    await this.finish(batchId, progress);
  }

  /** Ends the batch once no line is pending or running: cancelled if its owner asked, else completed. */
  private async finish(batchId: string, progress: Throttle<BatchRecord>): Promise<void> {
    const { store } = this.deps;
    const [pending, running] = await Promise.all([store.batchLines.countByStatus(batchId, "pending"), store.batchLines.countByStatus(batchId, "running")]);
    const batch = await store.batches.findById(batchId);
    if (!batch) return;
    // Lines left (a cancelled line raced a start, another run holds some): the batch is not over.
    if (running > 0 || (pending > 0 && !batch.cancel_requested)) throw new Error(`batch ${batchId} still has ${pending} pending and ${running} running lines`);
    if (batch.cancel_requested && pending > 0) await store.batchLines.cancelPending(batchId, "Cancelled before it was started.");
    // The counts as the lines say: a crash between a line's end and its count must not leave them short.
    const [completed, failed] = await Promise.all([store.batchLines.countByStatus(batchId, "completed"), store.batchLines.countByStatus(batchId, "failed")]);
    await store.batches.setStatus(batchId, batch.cancel_requested ? "cancelled" : "completed", new Date(), { completed, failed });
    const ended = (await store.batches.findById(batchId)) ?? batch;
    progress.flush(ended);
    await this.announceEnd(ended);
  }

  /**
   * `batch.completed` to the owner's endpoints, for every end (completed or cancelled). Its event id
   * derives from the batch, so a run that repeats it after a crash adds no second delivery.
   */
  private async announceEnd(batch: BatchRecord): Promise<void> {
    if (!this.deps.webhooks) return;
    try {
      await this.deps.webhooks.emit({
        id: `evt_batch_${batch.id}`,
        type: "batch.completed",
        user_id: batch.user_id,
        api_key_id: batch.api_key_id,
        signed_in: false,
        data: toBatch(batch),
        ...(batch.completed_at ? { occurred_at: batch.completed_at } : {}),
      });
    } catch (error) {
      // A webhook that could not be queued must not hold the batch open; its end stands.
      this.deps.logger.warn({ err: error, batch_id: batch.id }, "could not queue the batch.completed webhook");
    }
  }

  /**
   * Brings one running line to its end and records it. Passing trouble is retried here (same
   * decision id each time); a stop (`signal`) leaves the line running for the next run.
   */
  private async settle(batchId: string, line: BatchLineRecord, requester: Requester, fresh: boolean, signal: AbortSignal, progress: Throttle<BatchRecord>): Promise<void> {
    let backoff = RETRY_BASE_MS;
    let firstLook = fresh;
    for (;;) {
      if (signal.aborted) return;
      let end: LineEnd;
      try {
        end = await this.decide(line, requester, firstLook);
      } catch (error) {
        firstLook = false;
        this.deps.logger.warn({ err: error, batch_id: batchId, line: line.line }, "batch line interrupted; trying it again");
        await delay(backoff, undefined, { signal }).catch(() => undefined);
        backoff = Math.min(RETRY_MAX_MS, backoff * 2);
        continue;
      }
      // Stopping: the flow's waits end with a shutdown error that is no outcome of the line's decision.
      if (signal.aborted) return;
      try {
        await this.record(batchId, line, end, progress);
        return;
      } catch (error) {
        // Not recorded (the store away): the decision stands, so the next look finds it stored.
        this.deps.logger.warn({ err: error, batch_id: batchId, line: line.line }, "could not record a batch line; trying again");
        firstLook = false;
        await delay(backoff, undefined, { signal }).catch(() => undefined);
        backoff = Math.min(RETRY_MAX_MS, backoff * 2);
      }
    }
  }

  /**
   * The line's decision to its end. A fresh line (just moved from pending) was never enqueued, so
   * it starts at once; any other is looked for first: stored, in flight, or never enqueued.
   * Throws on passing trouble.
   */
  private async decide(line: BatchLineRecord, requester: Requester, fresh: boolean): Promise<LineEnd> {
    const { store, decisions, waitMs } = this.deps;
    if (!line.request) return { status: "failed", error: "The line has no request." };
    if (!fresh) {
      if (await store.decisions.findById(line.decision_id)) return { status: "completed" };
      const flow = await decisions.inFlight(line.decision_id);
      if (flow) return this.outcome(decisions.waitBatch(line.decision_id, waitMs));
    }
    let started: Promise<DecisionResponse>;
    try {
      // Checked for each line, as /v1/ensemble checks each call: a batch cannot spend past the key's limit by more than its lines in flight.
      if (requester.apiKeyId !== null && requester.user) await this.deps.assertWithinSpendLimit(requester.apiKeyId, requester.user.id);
      // The line's decision id is the anchor: a second start with it adds nothing to the queue.
      ({ result: started } = await decisions.start(line.request, requester, { earlyQuorumByDefault: true, decisionId: line.decision_id, lane: "batch", waitMs }));
    } catch (error) {
      if (error instanceof DomainError && LINE_FAULTS.has(error.kind)) return { status: "failed", error: error.message };
      throw error;
    }
    return this.outcome(started);
  }

  /** A decision's result as the line's end; a wait that ran out or a lost flow is passing trouble (thrown). */
  private async outcome(result: Promise<DecisionResponse>): Promise<LineEnd> {
    try {
      await result;
      return { status: "completed" };
    } catch (error) {
      if (error instanceof DomainError && (error.kind === "timed-out" || error.kind === "lost" || error.kind === "unavailable")) throw error;
      // Its aggregate job failed for good: the decision will never be stored.
      return { status: "failed", error: error instanceof Error ? error.message : String(error) };
    }
  }

  /** Records the line's end; counts it only when this call moved it (never twice, whatever ran before). */
  private async record(batchId: string, line: BatchLineRecord, end: LineEnd, progress: Throttle<BatchRecord>): Promise<void> {
    const { store } = this.deps;
    const moved = await store.batchLines.setStatus(batchId, line.line, end.status, end.status === "failed" ? end.error : null);
    if (!moved) return;
    const after = await store.batches.addCounts(batchId, end.status === "completed" ? { completed: 1 } : { failed: 1 });
    if (after) progress.push(after);
  }

  /** The key's owner, as a /v1 call with the batch's key would name them (history, cost and key usage count the decisions). */
  private async requesterOf(batch: BatchRecord): Promise<Requester> {
    const { store } = this.deps;
    const key = await store.apiKeys.findOwned(batch.api_key_id, batch.user_id);
    const email = key?.created_by ?? (await store.users.findById(batch.user_id))?.email ?? "";
    return { ip: null, user: { id: batch.user_id, email }, apiKeyId: batch.api_key_id };
  }
}

function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener("abort", () => resolve(), { once: true });
  });
}

function progressOf(batch: BatchRecord): BatchProgressEvent {
  return { batch_id: batch.id, status: batch.status, request_counts: { total: batch.total, completed: batch.completed, failed: batch.failed } };
}
