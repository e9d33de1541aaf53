import { access, constants } from "node:fs/promises";
import type { BaseDocument } from "../../collection";
import type { CollectionSpec } from "../../collection-spec";
import type { StoreDriver } from "../../driver";
import { StorageEvents } from "../../storage-health";
import { acquireDataDirLock } from "./data-dir-lock";
import { EmbeddedCollection } from "./embedded-collection";
import { makePrivateDir, tightenDataDir } from "./file-modes";
import { acknowledgeDamaged, listDamaged } from "./journal-damage";
import { WriteRoom, type WriteRoomTiming } from "./write-room";

export interface EmbeddedDriverOptions {
  /** Where damage and a full disk are reported (default: process warnings). */
  events?: StorageEvents;
  /** The full-disk probe's pace (tests shorten it). */
  probe?: WriteRoomTiming;
}

/** Opens the in-process store in `dataDir`, holding its lock file until `close`. */
export async function openEmbeddedDriver(dataDir: string, options: EmbeddedDriverOptions = {}): Promise<StoreDriver> {
  const events = options.events ?? new StorageEvents();
  await makePrivateDir(dataDir);
  await tightenDataDir(dataDir);
  const lock = await acquireDataDirLock(dataDir);
  const room = new WriteRoom(dataDir, events, options.probe);
  const collections: EmbeddedCollection<BaseDocument>[] = [];
  let closing: Promise<void> | null = null;

  return {
    kind: "embedded",
    async openCollection<TDoc extends BaseDocument>(spec: CollectionSpec<TDoc>) {
      if (closing) throw new Error("The embedded store is closed");
      const collection = await EmbeddedCollection.open(spec, dataDir, { events, room });
      collections.push(collection as unknown as EmbeddedCollection<BaseDocument>);
      return collection;
    },
    async ping() {
      if (closing) throw new Error("The embedded store is closed");
      await access(dataDir, constants.W_OK);
    },
    storage: {
      damage: () => listDamaged(dataDir),
      refusal: () => room.refusal,
      async acknowledgeDamage() {
        const files = await acknowledgeDamaged(dataDir);
        if (files.length > 0) events.report({ kind: "damage-acknowledged", files });
        return files;
      },
    },
    close() {
      closing ??= (async () => {
        room.close();
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
