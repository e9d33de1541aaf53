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
