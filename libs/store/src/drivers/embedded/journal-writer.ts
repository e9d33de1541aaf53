import { constants } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";
import { PRIVATE_FILE } from "./file-modes";

/**
 * The journal's open flags where the platform has O_DSYNC (Linux, macOS): each write returns once
 * its bytes, and the file size that makes them readable, are on disk, as a write and then an
 * fdatasync would. A flush is then one round trip to libuv's thread pool instead of two, and in a
 * busy process each round trip also waits for its turn on the event loop: under load this took
 * about a third off a decision's insert. Elsewhere (Windows) a write is followed by an fsync.
 */
const SYNCED_APPEND = constants.O_DSYNC === undefined ? null : constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_DSYNC;

/**
 * Appends lines to a journal; `append` resolves only once the bytes are durable. One call is one
 * flush: every line it is given goes out in one write (synced, or followed by an fsync), all or none.
 */
export class JournalWriter {
  #broken: Error | null = null;
  #flushes = 0;

  private constructor(
    private readonly handle: FileHandle,
    private size: number,
  ) {}

  static async open(path: string): Promise<JournalWriter> {
    const handle = await open(path, SYNCED_APPEND ?? "a", PRIVATE_FILE);
    const { size } = await handle.stat();
    return new JournalWriter(handle, size);
  }

  /** How many flushes (one durable append each) have been started since open. */
  get flushes(): number {
    return this.#flushes;
  }

  /**
   * Appends `lines` (each from `encodeJournalLine`, newline included) and makes them durable. Callers
   * serialise appends (one at a time). On failure none of them is left in the file.
   */
  async append(lines: readonly string[]): Promise<void> {
    if (this.#broken) throw new Error(`Journal is unusable after an earlier failure: ${this.#broken.message}`);
    // Buffers, not one joined string: a batch of large documents could pass V8's longest string.
    const bytes = lines.length === 1 ? Buffer.from(lines[0] ?? "", "utf8") : Buffer.concat(lines.map((line) => Buffer.from(line, "utf8")));
    this.#flushes += 1;
    try {
      await this.handle.appendFile(bytes);
      // Opened with O_DSYNC, the write was durable when it returned.
      if (SYNCED_APPEND === null) await this.handle.sync();
      this.size += bytes.length;
    } catch (error) {
      await this.#dropPartialAppend(error as Error);
      throw error;
    }
  }

  async close(): Promise<void> {
    await this.handle.close();
  }

  /** Cuts a half-written batch so later appends do not follow garbage; if that fails, refuse further writes. */
  async #dropPartialAppend(cause: Error): Promise<void> {
    try {
      await this.handle.truncate(this.size);
      await this.handle.sync();
    } catch {
      this.#broken = cause;
    }
  }
}
