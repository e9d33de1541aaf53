import type { Update } from "./collection";
import { InvalidUpdateError } from "./errors";

/**
 * Both drivers accept only operator updates (`{ $set: ... }`) or pipelines, never a replacement
 * document: mongoose would silently wrap one in `$set`, so it is rejected up front for both.
 */
export function assertUpdateDocument(update: Update): void {
  if (Array.isArray(update)) return;
  const keys = Object.keys(update);
  if (keys.length === 0) throw new InvalidUpdateError("Update document is empty");
  const plain = keys.filter((key) => !key.startsWith("$"));
  if (plain.length > 0) {
    throw new InvalidUpdateError(`Update document must only contain operators, found: ${plain.join(", ")}`);
  }
}
