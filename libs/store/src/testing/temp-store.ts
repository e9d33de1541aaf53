import { afterEach, beforeEach } from "vitest";
import { openStore, type Store } from "../store";
import { makeTempDir } from "./temp-dir";

/** A fresh embedded store in its own temp directory for each test; `reopen()` simulates a restart. */
export function useTempStore(): { readonly store: Store; reopen(): Promise<Store> } {
  let dir: Awaited<ReturnType<typeof makeTempDir>>;
  let store: Store;
  beforeEach(async () => {
    dir = await makeTempDir();
    store = await openStore({ mongoUrl: null, dataDir: dir.path });
  });
  afterEach(async () => {
    await store.close();
    await dir.remove();
  });
  return {
    get store() {
      return store;
    },
    async reopen() {
      await store.close();
      store = await openStore({ mongoUrl: null, dataDir: dir.path });
      return store;
    },
  };
}
