import { calculateObjectSize } from "bson";
import type { BaseDocument } from "../../collection";
import { DocumentTooLargeError, MAX_BSON_DOCUMENT_SIZE } from "../../errors";

/**
 * Refuses a document MongoDB could not hold (BSON size over 16 MiB), before anything is journaled,
 * so the embedded store accepts exactly the documents a MongoDB server would.
 */
export function assertDocumentSize(collection: string, doc: BaseDocument, operation: "insert" | "update"): void {
  const size = calculateObjectSize(doc);
  if (size > MAX_BSON_DOCUMENT_SIZE) throw new DocumentTooLargeError(collection, size, operation);
}
