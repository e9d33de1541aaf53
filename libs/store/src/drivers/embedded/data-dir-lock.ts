// The package ships no types; workspaces that compile this file through others (web/e2e) need them too.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./fs-native-extensions.d.ts" />
import { close as closeCallback, constants, fstat as fstatCallback, ftruncate as ftruncateCallback, fsync as fsyncCallback, open as openCallback, write as writeCallback } from "node:fs";
import { readFile, stat, unlink } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import fsNativeExtensions from "fs-native-extensions";
import { PRIVATE_FILE } from "./file-modes";

// Raw descriptors rather than FileHandle: Node closes a FileHandle it garbage-collects, and
// closing the descriptor is what drops the lock, so the lock must not depend on a live reference.
const openFd = promisify(openCallback);
const closeFd = promisify(closeCallback);
const fstat = promisify(fstatCallback);
const ftruncate = promisify(ftruncateCallback);
const fsync = promisify(fsyncCallback);
const write = promisify(writeCallback);

export const LOCK_FILE_NAME = "store.lock";

/** Another live process (or this one) already has the embedded store in this DATA_DIR open. */
export class EmbeddedStoreLockedError extends Error {
  constructor(
    readonly dataDir: string,
    /** The holder's pid as it wrote it (numbered in its own PID namespace); null if not written yet. */
    readonly holderPid: number | null,
  ) {
    super(
      `The embedded store in ${dataDir} is already open in another live process` +
        (holderPid === null ? ". " : ` (pid ${holderPid}). `) +
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
 * Takes the exclusive lock on `DATA_DIR/store.lock` for as long as this process lives. The kernel
 * holds it (fcntl F_OFD_SETLK on Linux, flock on macOS) and drops it however the holder ends, so a
 * crashed holder or a reused pid never blocks a restart; the pid in the file is only for the error
 * message. Deleting `store.lock` while the store is open defeats it, and a network file system must
 * support POSIX locks.
 */
export async function acquireDataDirLock(dataDir: string): Promise<DataDirLock> {
  const lockPath = join(dataDir, LOCK_FILE_NAME);
  // A retry happens only when the file was removed or replaced between our open and our lock.
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const fd = await openFd(lockPath, constants.O_RDWR | constants.O_CREAT, PRIVATE_FILE);
    let held = false;
    try {
      if (!fsNativeExtensions.tryLock(fd)) throw new EmbeddedStoreLockedError(dataDir, await readHolderPid(lockPath));
      // The previous holder unlinks the file while it still holds the lock; if we opened that
      // file just before, our lock is on an orphan inode and says nothing about the path.
      if (!(await isStillAt(fd, lockPath))) continue;
      await ftruncate(fd, 0);
      await write(fd, `${process.pid}\n`, 0, "utf8");
      await fsync(fd);
      held = true;
      return { release: releaseOnce(fd, lockPath) };
    } finally {
      if (!held) await closeFd(fd);
    }
  }
  throw new Error(`Could not take the lock ${lockPath}: it keeps being replaced`);
}

/** Whether `lockPath` still names the file open as `fd`. */
async function isStillAt(fd: number, lockPath: string): Promise<boolean> {
  const [open, named] = await Promise.all([fstat(fd), stat(lockPath).catch(() => null)]);
  return named !== null && named.dev === open.dev && named.ino === open.ino;
}

/** The pid the holder wrote, null if it has not written one yet (or the file is gone). */
async function readHolderPid(lockPath: string): Promise<number | null> {
  const text = await readFile(lockPath, "utf8").catch(() => "");
  const pid = Number.parseInt(text.trim(), 10);
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

/**
 * Removes the lock file, then closes it (which drops the lock). Unlinking first, while still
 * held, means no other process can lock this file afterwards and mistake it for the current one
 * (see isStillAt); a clean stop therefore leaves no `store.lock` behind.
 */
function releaseOnce(fd: number, lockPath: string): () => Promise<void> {
  let released: Promise<void> | null = null;
  return () =>
    (released ??= (async () => {
      try {
        if (await isStillAt(fd, lockPath)) await unlink(lockPath);
      } finally {
        await closeFd(fd);
      }
    })());
}
