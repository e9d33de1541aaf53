import { parentPort, workerData } from "node:worker_threads";
import { startEmulator } from "@sd/provider-emulator";
import type { EmulatorThreadData, EmulatorThreadMessage } from "./threaded-emulator";

/**
 * The keyless product's provider emulator, on the thread `startThreadedEmulator` starts. The control
 * token is generated here and never posted out: the rules arrive with the thread's data, and the
 * only thing sent back is the URL. No call log: the emulator sees every user's questions.
 */
const port = parentPort!;
const { rules } = workerData as EmulatorThreadData;
const emulator = await startEmulator({ recordCalls: false });
emulator.addRules(rules);
port.postMessage({ kind: "listening", url: emulator.url } satisfies EmulatorThreadMessage);
// Any message means "close": stop listening, then let the thread end.
port.once("message", () => {
  void emulator.close().then(() => port.close());
});
