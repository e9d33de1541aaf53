import { chmod, mkdir, readdir, stat } from "node:fs/promises";
import { join } from "node:path";

/**
 * Modes of what the embedded store creates under DATA_DIR: the journals hold questions, e-mail
 * addresses, token hashes and key ciphertext, so only the owner may read them.
 */
export const PRIVATE_FILE = 0o600;
export const PRIVATE_DIR = 0o700;

/** Creates `dir` (and its parents) owner-only; an existing directory is left as it is. */
export async function makePrivateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR });
}

/**
 * Tightens what an older version left readable by others: DATA_DIR itself when this process owns
 * it, and the store's files and directories at its top level (a 0700 directory also hides the files
 * inside it, so the thousands of stored-apart files need no pass of their own). Best effort: a
 * file this process may not chmod (another owner) is left as it is.
 */
export async function tightenDataDir(dataDir: string): Promise<void> {
  const owner = process.getuid?.();
  const dirStat = await stat(dataDir);
  if (owner === undefined || dirStat.uid === owner) await chmodIfLooser(dataDir, dirStat.mode, PRIVATE_DIR);
  for (const entry of await readdir(dataDir, { withFileTypes: true })) {
    const path = join(dataDir, entry.name);
    if (entry.isDirectory()) await chmodIfLooser(path, null, PRIVATE_DIR);
    else if (entry.isFile()) await chmodIfLooser(path, null, PRIVATE_FILE);
  }
}

async function chmodIfLooser(path: string, knownMode: number | null, mode: number): Promise<void> {
  try {
    const current = (knownMode ?? (await stat(path)).mode) & 0o777;
    if ((current & ~mode) !== 0) await chmod(path, current & mode);
  } catch {
    // Not ours to change (or gone meanwhile): the files this store creates are private regardless.
  }
}
