import { BATCH_LIMITS, TERMINAL_BATCH_LINE_STATUSES, TERMINAL_BATCH_STATUSES, type BatchLineStatus, type BatchStatus, type DecisionRequest } from "@sd/contracts";
import type { Collection, Filter } from "../collection";
import type { BatchDocument, BatchLineDocument, BatchLineRequestDocument } from "./schema";

export type { BatchLineStatus, BatchStatus } from "@sd/contracts";

/** A batch as the repository returns it. */
export type BatchRecord = Omit<BatchDocument, "_id"> & { id: string };

/** A line as the repository returns it; `request` is null for a line skipped as invalid. */
export interface BatchLineRecord {
  batch_id: string;
  line: number;
  custom_id: string;
  request: DecisionRequest | null;
  status: BatchLineStatus;
  decision_id: string;
  error: string | null;
}

/** What the results of a line need: the line without its request (no images read). */
export type BatchLineOutcome = Omit<BatchLineRecord, "request">;

/** A line to write: pending with its request, or skipped with its error. */
export type NewBatchLine = Omit<BatchLineRecord, "batch_id">;

export interface BatchRepository {
  /** Stores a batch record: call it after `BatchLineRepository.insertMany` wrote every line. */
  create(batch: BatchRecord): Promise<void>;
  findById(id: string): Promise<BatchRecord | null>;
  /** The batch if it belongs to `userId`; null for an unknown id and another user's batch alike. */
  findOwned(id: string, userId: string): Promise<BatchRecord | null>;
  /** A user's batches, newest first, and how many there are. */
  listForUser(userId: string, page: { limit: number; offset: number }): Promise<{ batches: BatchRecord[]; total: number }>;
  /** Batches not in a terminal state, for the runner's recovery at start. */
  listUnfinished(): Promise<BatchRecord[]>;
  /**
   * Moves a batch to `status` unless it is in a terminal state already (false then, and nothing
   * changed); a terminal status sets `completed_at` to `at`. `counts`, when given, replace the
   * counts in the same write: the lines' own count at the end, which a crash between a line's end
   * and its `addCounts` cannot leave short.
   */
  setStatus(id: string, status: BatchStatus, at?: Date, counts?: { completed: number; failed: number }): Promise<boolean>;
  /** Adds to the counts ($inc) and answers the record after; null for an unknown id. */
  addCounts(id: string, counts: { completed?: number; failed?: number }): Promise<BatchRecord | null>;
  /** Asks the runner to stop: the owner's batch when it is not finished, else its record as it is (null when none). */
  requestCancel(id: string, userId: string): Promise<{ kind: "requested"; batch: BatchRecord } | { kind: "finished"; batch: BatchRecord } | { kind: "not-found" }>;
  /** Deletes the batches that expired before `now`; answers how many. */
  deleteExpired(now: Date): Promise<number>;
}

export interface BatchLineRepository {
  /** Writes lines of one batch (one group commit per chunk); before the batch record, see `BatchRepository.create`. */
  insertMany(batchId: string, expiresAt: Date, lines: readonly NewBatchLine[]): Promise<void>;
  /** Pending lines with a number above `afterLine`, ascending, at most `limit`. */
  nextPending(batchId: string, afterLine: number, limit: number): Promise<BatchLineRecord[]>;
  listByStatus(batchId: string, status: BatchLineStatus): Promise<BatchLineRecord[]>;
  findLine(batchId: string, line: number): Promise<BatchLineRecord | null>;
  /**
   * Moves a line to `status` from a non-terminal one (pending or running); false when it was
   * terminal already, so its count is never added twice.
   */
  setStatus(batchId: string, line: number, status: BatchLineStatus, error?: string | null): Promise<boolean>;
  /** Marks every pending line cancelled, each only if still pending; answers how many. */
  cancelPending(batchId: string, error: string): Promise<number>;
  /** Every line with its request, in line order. */
  stream(batchId: string): AsyncIterable<BatchLineRecord>;
  /** Every line without its request (no images read), in line order: for results. */
  streamOutcomes(batchId: string): AsyncIterable<BatchLineOutcome>;
  countByStatus(batchId: string, status: BatchLineStatus): Promise<number>;
  /** Deletes the lines that expired before `now` (also those of a batch whose record was never written); answers how many. */
  deleteExpired(now: Date): Promise<number>;
}

function present(value: string, name: string): string {
  if (typeof value !== "string" || value === "") throw new RangeError(`${name} must be a non-empty string`);
  return value;
}

const lineId = (batchId: string, line: number) => `${batchId}:${line}`;
// $eq compares literally: an id taken from a request can never act as a query operator.
const ofBatch = (batchId: string): Filter => ({ batch_id: { $eq: present(batchId, "batchId") } });
const UNFINISHED_BATCH = { $nin: [...TERMINAL_BATCH_STATUSES] };
const UNFINISHED_LINE = { $nin: [...TERMINAL_BATCH_LINE_STATUSES] };

function fromBatchDocument({ _id, ...fields }: BatchDocument): BatchRecord {
  return { id: _id, ...fields };
}

function toRequest(doc: BatchLineDocument): DecisionRequest | null {
  if (!doc.request) return null;
  const { question, categories, ensemble_mode, models } = doc.request;
  const images = doc.images ? (JSON.parse(doc.images) as string[]) : [];
  return {
    question,
    categories: [...categories],
    images,
    ...(ensemble_mode !== undefined && ensemble_mode !== null ? { ensemble_mode } : {}),
    ...(models !== undefined && models !== null ? { models: [...models] } : {}),
  };
}

function toOutcome(doc: BatchLineDocument): BatchLineOutcome {
  return { batch_id: doc.batch_id, line: doc.line, custom_id: doc.custom_id, status: doc.status, decision_id: doc.decision_id, error: doc.error ?? null };
}

function fromLineDocument(doc: BatchLineDocument): BatchLineRecord {
  return { ...toOutcome(doc), request: toRequest(doc) };
}

function toLineDocument(batchId: string, expiresAt: Date, line: NewBatchLine): BatchLineDocument {
  let request: BatchLineRequestDocument | null = null;
  let images: string | undefined;
  if (line.request) {
    const { question, categories, ensemble_mode, models } = line.request;
    request = { question, categories: [...categories], ...(ensemble_mode ? { ensemble_mode } : {}), ...(models ? { models: [...models] } : {}) };
    if (line.request.images.length > 0) images = JSON.stringify(line.request.images);
  }
  // Built in schema order with every field present, as `insertOnePrevalidated` requires.
  return {
    _id: lineId(batchId, line.line),
    batch_id: batchId,
    line: line.line,
    custom_id: line.custom_id,
    request,
    ...(images !== undefined ? { images } : {}),
    status: line.status,
    pending_of: line.status === "pending" ? batchId : null,
    decision_id: line.decision_id,
    error: line.error,
    expires_at: expiresAt,
  };
}

/** Lines written (or updated) at once: each chunk is one group commit, and a bounded number of promises. */
const CHUNK = 500;

export function createBatchRepository(batches: Collection<BatchDocument>): BatchRepository {
  const findOwned = async (id: string, userId: string) => {
    const doc = await batches.findOne({ _id: { $eq: id }, user_id: { $eq: present(userId, "userId") } });
    return doc ? fromBatchDocument(doc) : null;
  };
  return {
    async create(batch) {
      const { id, ...fields } = batch;
      await batches.insertOne({ _id: id, ...fields });
    },

    async findById(id) {
      const doc = await batches.findOne({ _id: { $eq: id } });
      return doc ? fromBatchDocument(doc) : null;
    },

    findOwned,

    async listForUser(userId, { limit, offset }) {
      const filter = { user_id: { $eq: present(userId, "userId") } };
      const [docs, total] = await Promise.all([
        batches.find(filter, { sort: { created_at: -1, _id: 1 }, skip: offset, limit }),
        batches.countDocuments(filter),
      ]);
      return { batches: docs.map(fromBatchDocument), total };
    },

    async listUnfinished() {
      return (await batches.find({ status: UNFINISHED_BATCH }, { sort: { created_at: 1, _id: 1 } })).map(fromBatchDocument);
    },

    async setStatus(id, status, at = new Date(), counts) {
      const terminal = TERMINAL_BATCH_STATUSES.includes(status);
      const result = await batches.updateOne(
        { _id: { $eq: id }, status: UNFINISHED_BATCH },
        { $set: { status, ...(terminal ? { completed_at: at } : {}), ...(counts ? { completed: counts.completed, failed: counts.failed } : {}) } },
      );
      return result.matchedCount > 0;
    },

    async addCounts(id, counts) {
      const inc: Record<string, number> = {};
      if (counts.completed) inc.completed = counts.completed;
      if (counts.failed) inc.failed = counts.failed;
      if (Object.keys(inc).length > 0) await batches.updateOne({ _id: { $eq: id } }, { $inc: inc });
      const doc = await batches.findOne({ _id: { $eq: id } });
      return doc ? fromBatchDocument(doc) : null;
    },

    async requestCancel(id, userId) {
      const before = await batches.findOneAndUpdate(
        { _id: { $eq: id }, user_id: { $eq: present(userId, "userId") }, status: UNFINISHED_BATCH },
        { $set: { cancel_requested: true } },
      );
      if (before) return { kind: "requested", batch: { ...fromBatchDocument(before), cancel_requested: true } };
      const batch = await findOwned(id, userId);
      return batch ? { kind: "finished", batch } : { kind: "not-found" };
    },

    deleteExpired(now) {
      return batches.deleteMany({ expires_at: { $lt: now } });
    },
  };
}

export function createBatchLineRepository(lines: Collection<BatchLineDocument>): BatchLineRepository {
  const setStatus = async (batchId: string, line: number, status: BatchLineStatus, error: string | null = null) => {
    const result = await lines.updateOne(
      { _id: { $eq: lineId(present(batchId, "batchId"), line) }, status: UNFINISHED_LINE },
      { $set: { status, pending_of: status === "pending" ? batchId : null, error } },
    );
    return result.matchedCount > 0;
  };

  return {
    async insertMany(batchId, expiresAt, newLines) {
      present(batchId, "batchId");
      for (let start = 0; start < newLines.length; start += CHUNK) {
        const chunk = newLines.slice(start, start + CHUNK).map((line) => toLineDocument(batchId, expiresAt, line));
        // Concurrent inserts share one journal flush on the embedded store.
        await Promise.all(chunk.map((doc) => lines.insertOnePrevalidated(doc)));
      }
    },

    async nextPending(batchId, afterLine, limit) {
      const docs = await lines.find({ pending_of: { $eq: present(batchId, "batchId") }, line: { $gt: afterLine } }, { sort: { line: 1 }, limit });
      return docs.map(fromLineDocument);
    },

    async listByStatus(batchId, status) {
      const docs = await lines.find({ ...ofBatch(batchId), status: { $eq: status } }, { sort: { line: 1 } });
      return docs.map(fromLineDocument);
    },

    async findLine(batchId, line) {
      const doc = await lines.findOne({ _id: { $eq: lineId(present(batchId, "batchId"), line) } });
      return doc ? fromLineDocument(doc) : null;
    },

    setStatus,

    async cancelPending(batchId, error) {
      present(batchId, "batchId");
      const before = await lines.countDocuments({ ...ofBatch(batchId), status: "cancelled" });
      // A pipeline update applied to each line as it is when written: a line the runner has just
      // started (no longer pending) keeps its status and is counted by the runner. One journal
      // flush per chunk on the embedded store, one bulk write on MongoDB.
      const stillPending = { $eq: ["$status", "pending"] };
      const cancel = [
        {
          $set: {
            status: { $cond: [stillPending, "cancelled", "$status"] },
            error: { $cond: [stillPending, { $literal: error }, "$error"] },
            pending_of: { $cond: [stillPending, null, "$pending_of"] },
          },
        },
      ];
      // Bounded: a batch has at most maxLines lines, each leaves "pending" at the first pass.
      for (let round = 0; round <= Math.ceil(BATCH_LIMITS.maxLines / (CHUNK * 4)); round++) {
        const pending = await lines.find({ pending_of: { $eq: batchId } }, { projection: { _id: 1 }, limit: CHUNK * 4 });
        if (pending.length === 0) break;
        await lines.upsertMany(pending.map((doc) => ({ id: doc._id, update: cancel })));
      }
      return (await lines.countDocuments({ ...ofBatch(batchId), status: "cancelled" })) - before;
    },

    async *stream(batchId) {
      for await (const doc of lines.stream(ofBatch(batchId), { sort: { line: 1 } })) yield fromLineDocument(doc);
    },

    async *streamOutcomes(batchId) {
      const projection = { batch_id: 1, line: 1, custom_id: 1, status: 1, decision_id: 1, error: 1 } as const;
      for await (const doc of lines.stream(ofBatch(batchId), { sort: { line: 1 }, projection })) yield toOutcome(doc);
    },

    countByStatus(batchId, status) {
      return lines.countDocuments({ ...ofBatch(batchId), status: { $eq: status } });
    },

    deleteExpired(now) {
      return lines.deleteMany({ expires_at: { $lt: now } });
    },
  };
}
