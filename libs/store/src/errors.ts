/** MongoDB's error code for a unique index violation. */
export const DUPLICATE_KEY_CODE = 11000;

/** Raised by the embedded driver with the same shape as MongoDB's duplicate key error. */
export class DuplicateKeyError extends Error {
  readonly code = DUPLICATE_KEY_CODE;
  constructor(
    readonly collection: string,
    readonly indexName: string,
    readonly keyValue: Record<string, unknown>,
  ) {
    super(`E11000 duplicate key error collection: ${collection} index: ${indexName} dup key: ${JSON.stringify(keyValue)}`);
    this.name = "DuplicateKeyError";
  }
}

/** True for a duplicate key error from either driver (MongoServerError or DuplicateKeyError). */
export function isDuplicateKeyError(error: unknown): boolean {
  return typeof error === "object" && error !== null && "code" in error && error.code === DUPLICATE_KEY_CODE;
}

/** Raised when an update document is neither operators nor a pipeline (both drivers reject it). */
export class InvalidUpdateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InvalidUpdateError";
  }
}

/** MongoDB's largest document (BSON bytes): 16 MiB. Both drivers refuse anything bigger. */
export const MAX_BSON_DOCUMENT_SIZE = 16 * 1024 * 1024;

/** MongoDB's error code for a document over the BSON size limit (BSONObjectTooLarge). */
export const DOCUMENT_TOO_LARGE_CODE = 10334;

/**
 * Raised by the embedded driver, with MongoDB's code and wording, for a document whose BSON size
 * exceeds 16 MiB, so that a write MongoDB would refuse is refused here too (and nothing is stored).
 */
export class DocumentTooLargeError extends Error {
  readonly code = DOCUMENT_TOO_LARGE_CODE;
  constructor(
    readonly collection: string,
    readonly size: number,
    operation: "insert" | "update",
  ) {
    super(
      operation === "insert"
        ? `object to insert too large. size in bytes: ${size}, max size: ${MAX_BSON_DOCUMENT_SIZE}`
        : `Resulting document after update is larger than ${MAX_BSON_DOCUMENT_SIZE}`,
    );
    this.name = "DocumentTooLargeError";
  }
}

/**
 * True for a document refused for its size by either driver: ours, the MongoDB server's
 * BSONObjectTooLarge (10334, or 17419 from older servers), or the Node driver's own check.
 */
export function isDocumentTooLargeError(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  if ("code" in error && (error.code === DOCUMENT_TOO_LARGE_CODE || error.code === 17419)) return true;
  return error instanceof Error && /larger than the maximum size|object to insert too large|BSONObj size: \d+ .*is invalid/.test(error.message);
}
