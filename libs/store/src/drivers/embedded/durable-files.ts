import { open, rename, rm } from "node:fs/promises";
import { dirname } from "node:path";
import { PRIVATE_FILE } from "./file-modes";

/**
 * Replaces `path` atomically with the given chunks: write a temp file, fsync it, rename it over
 * `path`, fsync the directory (unless the caller does that once for several files). A crash
 * leaves either the old or the new file, never a mix.
 */
export async function writeFileAtomically(path: string, chunks: Iterable<string>, { syncDir = true } = {}): Promise<void> {
  const tempPath = `${path}.tmp`;
  const handle = await open(tempPath, "w", PRIVATE_FILE);
  try {
    let buffer = "";
    for (const chunk of chunks) {
      buffer += chunk;
      if (buffer.length >= 1 << 20) {
        await handle.appendFile(buffer);
        buffer = "";
      }
    }
    if (buffer) await handle.appendFile(buffer);
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(tempPath, { force: true });
    throw error;
  }
  await handle.close();
  await rename(tempPath, path);
  if (syncDir) await syncDirectory(dirname(path));
}

/** Makes a rename or file creation in `dir` durable (best effort where directories cannot be opened). */
export async function syncDirectory(dir: string): Promise<void> {
  let handle;
  try {
    handle = await open(dir, "r");
    await handle.sync();
  } catch {
    // Some platforms (Windows) cannot fsync a directory; the rename itself is still atomic.
  } finally {
    await handle?.close();
  }
}
