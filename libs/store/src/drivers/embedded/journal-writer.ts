import { open, type FileHandle } from "node:fs/promises";
import { encodeJournalLine, type JournalEntry } from "./journal-format";

/** Appends entries to a journal; `append` resolves only once the bytes are fsynced. */
export class JournalWriter {
  #broken: Error | null = null;

  private constructor(
    private readonly handle: FileHandle,
    private size: number,
  ) {}

  static async open(path: string): Promise<JournalWriter> {
    const handle = await open(path, "a");
    const { size } = await handle.stat();
    return new JournalWriter(handle, size);
  }

  /** Callers serialise appends (one at a time). */
  async append(entry: JournalEntry): Promise<void> {
    if (this.#broken) throw new Error(`Journal is unusable after an earlier failure: ${this.#broken.message}`);
    const bytes = Buffer.from(encodeJournalLine(entry), "utf8");
    try {
      await this.handle.appendFile(bytes);
      await this.handle.sync();
      this.size += bytes.length;
    } catch (error) {
      await this.#dropPartialAppend(error as Error);
      throw error;
    }
  }

  async close(): Promise<void> {
    await this.handle.close();
  }

  /** Cuts a half-written line so later appends do not follow garbage; if that fails, refuse further writes. */
  async #dropPartialAppend(cause: Error): Promise<void> {
    try {
      await this.handle.truncate(this.size);
      await this.handle.sync();
    } catch {
      this.#broken = cause;
    }
  }
}
