import { access, constants, mkdir } from "node:fs/promises";
import type { BaseDocument } from "../../collection";
import type { CollectionSpec } from "../../collection-spec";
import type { StoreDriver } from "../../driver";
import { acquireDataDirLock } from "./data-dir-lock";
import { EmbeddedCollection, type EmbeddedCollectionOptions } from "./embedded-collection";

/** Opens the in-process store in `dataDir`, holding its lock file until `close`. */
export async function openEmbeddedDriver(dataDir: string, options: EmbeddedCollectionOptions = {}): Promise<StoreDriver> {
  await mkdir(dataDir, { recursive: true });
  const lock = await acquireDataDirLock(dataDir);
  const collections: EmbeddedCollection<BaseDocument>[] = [];
  let closing: Promise<void> | null = null;

  return {
    kind: "embedded",
    async openCollection<TDoc extends BaseDocument>(spec: CollectionSpec<TDoc>) {
      if (closing) throw new Error("The embedded store is closed");
      const collection = await EmbeddedCollection.open(spec, dataDir, options);
      collections.push(collection as unknown as EmbeddedCollection<BaseDocument>);
      return collection;
    },
    async ping() {
      if (closing) throw new Error("The embedded store is closed");
      await access(dataDir, constants.W_OK);
    },
    close() {
      closing ??= (async () => {
        try {
          await Promise.all(collections.map((collection) => collection.close()));
        } finally {
          await lock.release();
        }
      })();
      return closing;
    },
  };
}
