import { open, readdir, rename } from "node:fs/promises";
import { dirname, join } from "node:path";
import { syncDirectory } from "./durable-files";
import { PRIVATE_FILE } from "./file-modes";
import type { JournalDamage } from "./journal-replay";

const DAMAGED_SUFFIX = ".damaged";

export function damagedPath(journal: string): string {
  return `${journal}${DAMAGED_SUFFIX}`;
}

/**
 * Appends the end of `journal` that replay dropped to `<journal>.damaged`, durably, before the
 * compaction that removes it from the journal: earlier damage in that file is kept, and a newline
 * is added after bytes that lack one so the next damage starts on a line of its own.
 */
export async function keepDamagedBytes(journal: string, damage: JournalDamage): Promise<string> {
  const bytes = Buffer.alloc(damage.bytes);
  const source = await open(journal, "r");
  try {
    await source.read(bytes, 0, damage.bytes, damage.offset);
  } finally {
    await source.close();
  }
  const kept = damagedPath(journal);
  const target = await open(kept, "a", PRIVATE_FILE);
  try {
    await target.appendFile(bytes.at(-1) === 0x0a ? bytes : Buffer.concat([bytes, Buffer.from("\n")]));
    await target.sync();
  } finally {
    await target.close();
  }
  await syncDirectory(dirname(journal));
  return kept;
}

/** The damage files not yet acknowledged in `dataDir`. */
export async function listDamaged(dataDir: string): Promise<string[]> {
  const names = await readdir(dataDir);
  return names.filter((name) => name.endsWith(DAMAGED_SUFFIX)).map((name) => join(dataDir, name));
}

/**
 * Acknowledges every damage file by renaming it `<file>.acknowledged-<UTC time>`: the bytes stay
 * for whoever wants to look, and the store stops reporting "degraded" (also after a restart).
 */
export async function acknowledgeDamaged(dataDir: string, now = new Date()): Promise<string[]> {
  const stamp = now.toISOString().replaceAll(":", "-");
  const renamed: string[] = [];
  for (const file of await listDamaged(dataDir)) {
    const target = `${file}.acknowledged-${stamp}`;
    await rename(file, target);
    renamed.push(target);
  }
  if (renamed.length > 0) await syncDirectory(dataDir);
  return renamed;
}
