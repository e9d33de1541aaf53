import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openStore, type Store } from "../../store";
import { sampleDecision } from "../../testing/sample-decision";
import type { HolderReport } from "../../testing/hold-data-dir";
import { makeTempDir } from "../../testing/temp-dir";
import { EmbeddedStoreLockedError, LOCK_FILE_NAME } from "./data-dir-lock";

const ROOT = fileURLToPath(new URL("../../../../../", import.meta.url));
const HOLDER = fileURLToPath(new URL("../../testing/hold-data-dir.ts", import.meta.url));

// A container's PID 1 is reproduced with a PID namespace of its own (needs root or user namespaces).
const pidNamespaces = spawnSync("unshare", ["--pid", "--fork", "true"]).status === 0;
if (!pidNamespaces) console.warn("data-dir lock: `unshare --pid --fork` is not permitted here, so the PID-namespace (container PID 1) test is skipped");

/** Another Node process that opens the embedded store in a data dir and holds it until killed. */
class Holder {
  readonly report: Promise<HolderReport>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private stderr = "";

  constructor(private readonly child: ChildProcess) {
    child.stderr!.on("data", (chunk: Buffer) => (this.stderr += chunk.toString()));
    this.exited = once(child, "exit").then(([code, signal]) => ({ code: code as number | null, signal: signal as NodeJS.Signals | null }));
    this.report = new Promise((resolve, reject) => {
      createInterface({ input: child.stdout! }).once("line", (line) => resolve(JSON.parse(line) as HolderReport));
      void this.exited.then(({ code, signal }) => reject(new Error(`holder exited (${code ?? signal}) before reporting\n${this.stderr}`)));
    });
  }

  static start(dataDir: string, { ownPidNamespace = false } = {}): Holder {
    const node = [process.execPath, "--import", "tsx", HOLDER, dataDir];
    const [command, ...args] = ownPidNamespace ? ["unshare", "--pid", "--fork", ...node] : node;
    return new Holder(spawn(command!, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] }));
  }

  async opened(): Promise<Extract<HolderReport, { event: "opened" }>> {
    const report = await this.report;
    if (report.event !== "opened") throw new Error(`holder was refused: ${report.message}`);
    return report;
  }

  /** kill -9 of the process holding the store (inside its PID namespace if it has one), awaited. */
  async crash(): Promise<void> {
    process.kill((await this.opened()).hostPid, "SIGKILL");
    await this.exited;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const report = await this.report.catch(() => null);
      if (report?.event === "opened") process.kill(report.hostPid, "SIGKILL");
      this.child.kill("SIGKILL");
    }
    await this.exited;
  }
}

describe("data dir lock across processes", () => {
  let dir: Awaited<ReturnType<typeof makeTempDir>>;
  const holders: Holder[] = [];
  const stores: Store[] = [];
  const startHolder = (options?: { ownPidNamespace?: boolean }) => {
    const holder = Holder.start(dir.path, options);
    holders.push(holder);
    return holder;
  };
  const openHere = async () => {
    const store = await openStore({ dataDir: dir.path });
    stores.push(store);
    return store;
  };
  const lockFileText = () => readFile(join(dir.path, LOCK_FILE_NAME), "utf8");

  beforeEach(async () => {
    dir = await makeTempDir();
  });
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
    await Promise.all(holders.splice(0).map((holder) => holder.stop()));
    await dir.remove();
  });

  it.skipIf(!pidNamespaces)("restarts after kill -9 as PID 1 of its own PID namespace, and refuses a second process meanwhile", async () => {
    const first = startHolder({ ownPidNamespace: true });
    expect((await first.opened()).pid).toBe(1);
    // Another PID namespace does not let a second process in while the first lives.
    await expect(openStore({ dataDir: dir.path })).rejects.toBeInstanceOf(EmbeddedStoreLockedError);

    await first.crash();
    expect((await lockFileText()).trim()).toBe("1"); // what a crashed container leaves behind

    const restarted = startHolder({ ownPidNamespace: true });
    expect((await restarted.opened()).pid).toBe(1);
  });

  it("opens a data dir whose lock file, left by a crash, names the starting process's own pid", async () => {
    await writeFile(join(dir.path, LOCK_FILE_NAME), `${process.pid}\n`);
    const store = await openHere();
    expect(await store.decisions.insertOnce(sampleDecision())).toBe(true);
  });

  it("opens a data dir whose lock file names a pid reused by an unrelated live process", async () => {
    const unrelated = spawn(process.execPath, ["-e", "setInterval(() => {}, 60000)"], { stdio: "ignore" });
    try {
      await once(unrelated, "spawn");
      await writeFile(join(dir.path, LOCK_FILE_NAME), `${unrelated.pid}\n`);
      const store = await openHere();
      expect(await store.decisions.insertOnce(sampleDecision())).toBe(true);
      expect((await lockFileText()).trim()).toBe(String(process.pid));
    } finally {
      unrelated.kill("SIGKILL");
      await once(unrelated, "exit");
    }
  });

  it("refuses a second live process, and lets it in as soon as the first is killed", async () => {
    const first = startHolder();
    const { pid } = await first.opened();

    const second = startHolder();
    const refusal = await second.report;
    expect(refusal).toEqual({ event: "refused", message: expect.stringMatching(/already open in another live process \(pid \d+\).*single process.*MONGO_URL/s) });
    expect(refusal.event === "refused" && refusal.message).toContain(`pid ${pid}`);
    expect((await second.exited).code).toBe(3);
    await expect(openStore({ dataDir: dir.path })).rejects.toBeInstanceOf(EmbeddedStoreLockedError);

    // The kernel drops the lock with the process: no staleness period to wait out.
    await first.crash();
    const store = await openHere();
    expect(await store.decisions.insertOnce(sampleDecision())).toBe(true);
  });
});
