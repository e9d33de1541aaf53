import { startEmulator } from "./index";

/** Standalone emulator: `tsx libs/provider-emulator/src/main.ts` (env EMULATOR_PORT, EMULATOR_LATENCY_MS, EMULATOR_HOST). */
const port = Number(process.env["EMULATOR_PORT"] ?? 4010);
const defaultLatencyMs = Number(process.env["EMULATOR_LATENCY_MS"] ?? 0);
if (!Number.isInteger(port) || port < 0 || !Number.isFinite(defaultLatencyMs) || defaultLatencyMs < 0) {
  console.error("EMULATOR_PORT must be a port number and EMULATOR_LATENCY_MS a non-negative number");
  process.exit(1);
}

const emulator = await startEmulator({ port, defaultLatencyMs, host: process.env["EMULATOR_HOST"] ?? "127.0.0.1" });
console.log(`provider emulator listening on ${emulator.url}`);

const stop = (): void => {
  void emulator.close().then(() => process.exit(0));
};
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
