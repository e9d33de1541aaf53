export { batchesCollection, batchLinesCollection, type BatchDocument, type BatchLineDocument } from "./schema";
export {
  createBatchLineRepository,
  createBatchRepository,
  type BatchLineOutcome,
  type BatchLineRecord,
  type BatchLineRepository,
  type BatchLineStatus,
  type BatchRecord,
  type BatchRepository,
  type BatchStatus,
  type NewBatchLine,
} from "./repository";
