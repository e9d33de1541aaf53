import { randomUUID } from "node:crypto";
import { link, readFile, rm, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";

export const LOCK_FILE_NAME = "store.lock";

/** Another live process (or this one) already has the embedded store in this DATA_DIR open. */
export class EmbeddedStoreLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holderPid: number,
  ) {
    super(
      `The embedded store in ${dataDir} is already open in process ${holderPid}. ` +
        "The embedded store serves a single process only; to run services as separate processes, " +
        "set MONGO_URL to a MongoDB server.",
    );
    this.name = "EmbeddedStoreLockedError";
  }
}

export interface DataDirLock {
  release(): Promise<void>;
}

/**
 * Takes the exclusive lock file `DATA_DIR/store.lock` holding this process's pid. A lock left by a
 * process that is no longer alive is taken over. (Two processes taking over the same stale lock at
 * the same instant are not told apart; start-up of the all-in-one process does not do that.)
 */
export async function acquireDataDirLock(dataDir: string): Promise<DataDirLock> {
  const lockPath = join(dataDir, LOCK_FILE_NAME);
  for (let attempt = 0; attempt < 5; attempt += 1) {
    if (await createLockFile(lockPath)) return { release: () => releaseLock(lockPath) };
    const holder = await readHolderPid(lockPath);
    if (holder === "gone") continue;
    if (holder !== null && isProcessAlive(holder)) throw new EmbeddedStoreLockedError(dataDir, holder);
    await rm(lockPath, { force: true }); // stale (dead pid) or unreadable: take it over
  }
  throw new Error(`Could not take the lock ${lockPath}`);
}

/**
 * Creates the lock file with its content in one step (hard link of a complete temp file), so no
 * other process ever reads a half-written lock. Resolves false if the lock file already exists.
 */
async function createLockFile(lockPath: string): Promise<boolean> {
  const tempPath = `${lockPath}.${process.pid}.${randomUUID()}`;
  await writeFile(tempPath, `${process.pid}\n`, { flush: true });
  try {
    await link(tempPath, lockPath);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw error;
  } finally {
    await rm(tempPath, { force: true });
  }
}

/** The pid in the lock file, null if unreadable, "gone" if the file vanished meanwhile. */
async function readHolderPid(lockPath: string): Promise<number | null | "gone"> {
  let text: string;
  try {
    text = await readFile(lockPath, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return "gone";
    throw error;
  }
  const pid = Number.parseInt(text.trim(), 10);
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

export function isProcessAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function releaseLock(lockPath: string): Promise<void> {
  if ((await readHolderPid(lockPath)) !== process.pid) return;
  await unlink(lockPath).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== "ENOENT") throw error;
  });
}
