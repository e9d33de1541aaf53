import { open, rm } from "node:fs/promises";
import { join } from "node:path";
import { outOfRoom, StoreUnwritableError, type StorageEvents } from "../../storage-health";
import { PRIVATE_FILE } from "./file-modes";

const PROBE_FILE = ".write-probe";
/** Bigger than a typical decision's journal line, so a probe that passes means a decision fits too. */
const PROBE_BYTES = 64 * 1024;
const FIRST_PROBE_MS = 1_000;
const LONGEST_PROBE_GAP_MS = 8_000;

export interface WriteRoomTiming {
  firstProbeMs?: number;
  longestProbeGapMs?: number;
}

/**
 * Whether DATA_DIR has room for writes. A write that fails with ENOSPC, EDQUOT or EFBIG marks the
 * store unwritable (reported once) and starts a probe: a small durable write in DATA_DIR, retried
 * with a doubling gap (1 s up to 8 s), that clears the state when it succeeds, so the process
 * recovers without a restart. Writes are still attempted meanwhile (each fails cleanly, cut back
 * to its last complete line); the state only lets callers refuse new work at once.
 */
export class WriteRoom {
  #refusal: StoreUnwritableError | null = null;
  #since = 0;
  #timer: NodeJS.Timeout | null = null;
  #closed = false;

  constructor(
    private readonly dataDir: string,
    private readonly events: StorageEvents,
    private readonly timing: WriteRoomTiming = {},
  ) {}

  get refusal(): StoreUnwritableError | null {
    return this.#refusal;
  }

  /**
   * Watches a write: a failure for lack of room marks the store unwritable and is rethrown as a
   * StoreUnwritableError (its `code` still the errno's); any other outcome passes through.
   */
  async guard<T>(write: Promise<T>, file: string): Promise<T> {
    try {
      return await write;
    } catch (error) {
      const what = outOfRoom(error);
      if (what === null) throw error;
      throw this.#noRoom(`${what} writing ${file}`, error);
    }
  }

  close(): void {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }

  #noRoom(reason: string, cause: unknown): StoreUnwritableError {
    const refusal = new StoreUnwritableError(reason, { cause });
    if (this.#refusal === null && !this.#closed) {
      this.#refusal = refusal;
      this.#since = Date.now();
      this.events.report({ kind: "unwritable", reason: refusal.reason });
      this.#scheduleProbe(this.timing.firstProbeMs ?? FIRST_PROBE_MS);
    }
    return refusal;
  }

  #scheduleProbe(delayMs: number): void {
    if (this.#closed) return;
    this.#timer = setTimeout(() => void this.#probe(delayMs), delayMs);
    // The probe never keeps a process alive that has nothing else to do.
    this.#timer.unref();
  }

  async #probe(lastDelayMs: number): Promise<void> {
    this.#timer = null;
    if (await probeWrite(join(this.dataDir, PROBE_FILE))) {
      if (this.#closed) return;
      this.#refusal = null;
      this.events.report({ kind: "writable-again", unwritableForMs: Date.now() - this.#since });
      return;
    }
    this.#scheduleProbe(Math.min(lastDelayMs * 2, this.timing.longestProbeGapMs ?? LONGEST_PROBE_GAP_MS));
  }
}

/** Writes, syncs and removes a probe file; false when any step fails. */
async function probeWrite(path: string): Promise<boolean> {
  try {
    const handle = await open(path, "w", PRIVATE_FILE);
    try {
      await handle.writeFile(Buffer.alloc(PROBE_BYTES));
      await handle.sync();
    } finally {
      await handle.close();
    }
    return true;
  } catch {
    return false;
  } finally {
    await rm(path, { force: true }).catch(() => undefined);
  }
}
