import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * Runs a bench in a fresh temp data dir and deletes the dir afterwards; the exit status becomes 1
 * when the bench returns false (a target missed or an answer that differs from the baseline).
 */
export async function runInTempDir(prefix: string, bench: (dataDir: string) => Promise<boolean>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  let ok: boolean;
  try {
    ok = await bench(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  if (!ok) process.exitCode = 1;
}
