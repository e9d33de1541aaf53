import { createHash } from "node:crypto";
import { readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import type { BaseDocument } from "../../collection";
import { syncDirectory, writeFileAtomically } from "./durable-files";
import { makePrivateDir } from "./file-modes";

const MARKER = "apart:";

/** A query, sort, update or pipeline names a field whose values are kept apart: the embedded store cannot evaluate it. */
export class ApartFieldQueryError extends Error {
  constructor(collection: string, field: string, operation: string) {
    super(`${collection}.${field} is stored apart from its documents by the embedded store, so ${operation} cannot use it`);
    this.name = "ApartFieldQueryError";
  }
}

/**
 * The string fields of a collection kept out of memory and out of the journal (an image asset's
 * data: up to 13 MB each, which held in memory would fill the process's heap after about a hundred
 * decisions with images, and be read back in full at every start). Each value is a file of its
 * own in `<collection>.apart/`, written durably before the journal line that refers to it. In
 * memory and in the journal the field holds `apart:<file>`; documents read out of the collection
 * get the value back. Queries never see the values, so a filter, sort, update or pipeline that
 * names such a field is refused rather than answered wrongly.
 */
export class ApartFields {
  private constructor(
    private readonly collection: string,
    private readonly dir: string,
    readonly fields: readonly string[],
  ) {}

  static async open(dataDir: string, collection: string, fields: readonly string[]): Promise<ApartFields> {
    const dir = join(dataDir, `${collection}.apart`);
    if (fields.length > 0) await makePrivateDir(dir);
    return new ApartFields(collection, dir, fields);
  }

  get none(): boolean {
    return this.fields.length === 0;
  }

  /**
   * `doc` with each apart field's value written to its file (durably, except for the directory
   * entry: see `sync`) and replaced by its marker. A document holding markers only is returned as is.
   */
  async putApart<TDoc extends BaseDocument>(doc: TDoc): Promise<TDoc> {
    let stored = doc;
    for (const field of this.fields) {
      const value = (doc as Record<string, unknown>)[field];
      if (typeof value !== "string" || isMarker(value)) continue;
      const file = fileOf(doc._id, field);
      await writeFileAtomically(join(this.dir, file), [value], { syncDir: false });
      stored = { ...stored, [field]: `${MARKER}${file}` };
    }
    return stored;
  }

  /** Makes the files written since the last call part of the directory durably (one fsync for a batch). */
  async sync(): Promise<void> {
    if (!this.none) await syncDirectory(this.dir);
  }

  /**
   * Puts the values back into documents read out of the collection (private copies: changed in
   * place). A document deleted while its value was being read is left out, as if the read had come
   * just after the delete; a file missing for a document still stored is an error.
   */
  async restore<T>(docs: T[], stillStored: (id: string) => boolean): Promise<T[]> {
    if (this.none) return docs;
    const deleted = new Set<T>();
    const reads: Promise<void>[] = [];
    for (const doc of docs) {
      if (typeof doc !== "object" || doc === null) continue;
      const record = doc as Record<string, unknown>;
      for (const field of this.fields) {
        const value = record[field];
        if (typeof value !== "string" || !isMarker(value)) continue;
        const read = readFile(join(this.dir, value.slice(MARKER.length)), "utf8").then(
          (text) => void (record[field] = text),
          (error: unknown) => {
            if ((error as NodeJS.ErrnoException).code !== "ENOENT" || stillStored(String(record._id))) throw error;
            deleted.add(doc);
          },
        );
        reads.push(read);
      }
    }
    await Promise.all(reads);
    return deleted.size === 0 ? docs : docs.filter((doc) => !deleted.has(doc));
  }

  /** Deletes the files of documents that are gone from the journal (a crash before this leaves orphans, removed at the next start). */
  async remove(docs: readonly BaseDocument[]): Promise<void> {
    if (this.none) return;
    await Promise.all(docs.flatMap((doc) => this.fields.map((field) => rm(join(this.dir, fileOf(doc._id, field)), { force: true }))));
  }

  /**
   * At start: moves values still held in the journal (written before the field was kept apart)
   * to their files, and removes files no document refers to (a write or delete cut off by a
   * crash). Returns the ids of the documents that changed, which the journal must be rewritten for.
   */
  async adopt<TDoc extends BaseDocument>(docs: Map<string, TDoc>): Promise<Set<string>> {
    const changed = new Set<string>();
    if (this.none) return changed;
    const referenced = new Set<string>();
    for (const [id, doc] of docs) {
      const stored = await this.putApart(doc);
      if (stored !== doc) {
        docs.set(id, stored);
        changed.add(id);
      }
      for (const field of this.fields) {
        const value = (stored as Record<string, unknown>)[field];
        if (typeof value === "string" && isMarker(value)) referenced.add(value.slice(MARKER.length));
      }
    }
    for (const file of await readdir(this.dir)) {
      if (!referenced.has(file)) await rm(join(this.dir, file), { force: true });
    }
    await this.sync();
    return changed;
  }

  /**
   * Refuses a filter, sort or update that names an apart field (see the class comment). Only keys
   * count: a value in a filter is a literal, whatever it says (an id sent as "$image_data" is not
   * a reference to the field, and a client's odd id must not turn into a server error).
   */
  assertNotUsedBy(query: unknown, operation: string): void {
    for (const field of this.fields) {
      if (names(query, field, false)) throw new ApartFieldQueryError(this.collection, field, operation);
    }
  }

  /** Refuses a pipeline that names an apart field: as a key anywhere, or as a `$field` reference outside a `$match`. */
  assertNotUsedByPipeline(pipeline: readonly Record<string, unknown>[]): void {
    for (const stage of pipeline) {
      for (const field of this.fields) {
        if (names(stage, field, !("$match" in stage))) throw new ApartFieldQueryError(this.collection, field, "a pipeline");
      }
    }
  }
}

const isMarker = (value: string) => value.startsWith(MARKER);

/** A file name for a document's field: fixed length, and nothing in an `_id` can reach outside the directory. */
function fileOf(id: string, field: string): string {
  return createHash("sha256").update(`${id}\u0000${field}`).digest("hex");
}

/** True when `value` has `field` as a key (or a dotted path under it), or, with `references`, refers to it as `$field`. */
function names(value: unknown, field: string, references: boolean): boolean {
  if (typeof value === "string") return references && (value === `$${field}` || value.startsWith(`$${field}.`));
  if (typeof value !== "object" || value === null) return false;
  if (Array.isArray(value)) return value.some((item) => names(item, field, references));
  for (const [key, item] of Object.entries(value)) {
    if (key === field || key.startsWith(`${field}.`) || names(item, field, references)) return true;
  }
  return false;
}
