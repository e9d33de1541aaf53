import { once } from "node:events";
import { Worker } from "node:worker_threads";
import type { EmulatorRule } from "@sd/provider-emulator";
import type { Logger } from "@sd/telemetry";

/** What the emulator's thread is started with. */
export interface EmulatorThreadData {
  rules: EmulatorRule[];
}

/** What the thread posts once it listens. */
export interface EmulatorThreadMessage {
  kind: "listening";
  url: string;
}

export interface ThreadedEmulator {
  /** `http://127.0.0.1:port`, as `Emulator.url`. */
  url: string;
  /** Stops listening (open connections dropped) and ends the thread. */
  close(): Promise<void>;
}

const THREAD_ENTRY = new URL("./emulator-thread.ts", import.meta.url).href;

/**
 * The thread compiles its TypeScript through tsx's API: on Node 20 a worker thread does not inherit
 * the loader hooks of the thread that starts it (`--import tsx` or a test runner's).
 */
const bootCode = () =>
  `import(${JSON.stringify(import.meta.resolve("tsx/esm/api"))})` +
  `.then(({ tsImport }) => tsImport(${JSON.stringify(THREAD_ENTRY)}, ${JSON.stringify(import.meta.url)}))`;

/**
 * Starts the provider emulator on a worker thread of its own, scripted with `rules`: its HTTP
 * answers (parsing the SDKs' requests, generating the structured answers) then never share the
 * event loop of the gateway or the workers that call it. Resolves once it listens.
 */
export async function startThreadedEmulator(rules: readonly EmulatorRule[], logger: Logger): Promise<ThreadedEmulator> {
  const worker = new Worker(bootCode(), {
    eval: true,
    name: "provider-emulator",
    workerData: { rules: [...rules] } satisfies EmulatorThreadData,
  });
  const exited = once(worker, "exit");
  let listening = false;
  worker.on("error", (error) => {
    // Before it listens the start fails with it (below); after, the simulated models stop answering.
    if (listening) logger.error({ err: error }, "the provider emulator's thread failed: simulated models no longer answer");
  });
  const [message] = (await Promise.race([
    once(worker, "message"),
    exited.then(([code]: unknown[]) => {
      throw new Error(`the provider emulator's thread exited (code ${String(code)}) before it listened`);
    }),
  ])) as [EmulatorThreadMessage];
  listening = true;
  return {
    url: message.url,
    async close() {
      worker.postMessage("close");
      await exited;
    },
  };
}
