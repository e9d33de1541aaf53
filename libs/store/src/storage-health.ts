import { EventEmitter } from "node:events";

/** What the store tells its process about its disk: each one is logged (see `StorageEvents`). */
export type StorageEvent =
  /** At start, replay dropped the end of a journal (a torn or garbled last line); the bytes were kept in `keptIn`. */
  | { kind: "journal-damaged"; journal: string; line: number; bytes: number; keptIn: string }
  /** A write failed for lack of space (or a size limit): writes are refused until a probe write succeeds. */
  | { kind: "unwritable"; reason: string }
  /** A probe write succeeded after `unwritableForMs`: writes are taken again. */
  | { kind: "writable-again"; unwritableForMs: number }
  /** An operator acknowledged the kept damage: these files were renamed (never deleted). */
  | { kind: "damage-acknowledged"; files: string[] };

/** One sentence an operator can act on, for logs and warnings. */
export function describeStorageEvent(event: StorageEvent): string {
  switch (event.kind) {
    case "journal-damaged":
      return (
        `Dropped ${event.bytes} bytes from line ${event.line} of ${event.journal} at start (a torn or garbled end); ` +
        `they are kept in ${event.keptIn}. The store reports "degraded" until an operator acknowledges the damage.`
      );
    case "unwritable":
      return `The store cannot write: ${event.reason}. Decisions are refused until space is back.`;
    case "writable-again":
      return `The store can write again after ${Math.round(event.unwritableForMs / 1000)} s.`;
    case "damage-acknowledged":
      return `Journal damage acknowledged: renamed ${event.files.join(", ")}.`;
  }
}

/**
 * The store's storage events. Damage is found while the store opens, so the process attaches its
 * listener before `openStore` and passes the emitter in. An event nobody listens to still reaches
 * the operator as a Node process warning (stderr): damage is never silent.
 */
export class StorageEvents extends EventEmitter<{ storage: [StorageEvent] }> {
  report(event: StorageEvent): void {
    if (!this.emit("storage", event)) process.emitWarning(describeStorageEvent(event), { code: "SD_STORAGE" });
  }
}

/** User-facing: decisions cannot be written now (a full disk); mapped to 507 by the gateway. */
export class StoreUnwritableError extends Error {
  /** The errno code of the failed write (ENOSPC, EDQUOT, EFBIG), so callers can still tell them apart. */
  readonly code: string | undefined;
  constructor(
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`The store cannot write: ${reason}`, options);
    this.name = "StoreUnwritableError";
    this.code = (options?.cause as NodeJS.ErrnoException | undefined)?.code;
  }
}

/** The codes of a write that failed for lack of room (the disk or a quota is full, or a file-size limit is reached), described. */
const OUT_OF_ROOM: Readonly<Record<string, string>> = {
  ENOSPC: "no space left on device",
  EDQUOT: "disk quota exceeded",
  EFBIG: "file size limit reached",
};

/** "no space left on device (ENOSPC)" and the like for a write that failed for lack of room; null for any other failure. */
export function outOfRoom(error: unknown): string | null {
  const code = (error as NodeJS.ErrnoException | null | undefined)?.code;
  return typeof code === "string" && Object.hasOwn(OUT_OF_ROOM, code) ? `${OUT_OF_ROOM[code]} (${code})` : null;
}

/** The store's storage as an operator sees it: kept damage and whether writes are possible. */
export interface StorageHealth {
  /** Files of dropped journal bytes not yet acknowledged (read from the data directory on each call). */
  damage(): Promise<string[]>;
  /** Why writes are refused now (a full disk), or null. Cheap: asked by every decision request. */
  refusal(): StoreUnwritableError | null;
  /** Renames each damage file to `<file>.acknowledged-<time>` (nothing is deleted); returns the new names. */
  acknowledgeDamage(): Promise<string[]>;
}

/** MongoDB keeps its own data: nothing of it is watched here. */
export const NO_STORAGE_WATCH: StorageHealth = {
  damage: async () => [],
  refusal: () => null,
  acknowledgeDamage: async () => [],
};
