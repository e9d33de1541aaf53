import { CONTROL_TOKEN_HEADER, startEmulator } from "./index";

/**
 * Standalone emulator: `tsx libs/provider-emulator/src/main.ts` (env EMULATOR_PORT, EMULATOR_LATENCY_MS,
 * EMULATOR_HOST; EMULATOR_CONTROL_TOKEN, random when unset and printed at start; EMULATOR_RECORD_CALLS=1
 * keeps the call log for GET /_emulator/calls). POST /_emulator/lab configures the accuracy lab
 * (see LAB_DESCRIPTION in ./lab.ts; EmulatorLabClient is its typed client).
 */
const port = Number(process.env["EMULATOR_PORT"] ?? 4010);
const defaultLatencyMs = Number(process.env["EMULATOR_LATENCY_MS"] ?? 0);
if (!Number.isInteger(port) || port < 0 || !Number.isFinite(defaultLatencyMs) || defaultLatencyMs < 0) {
  console.error("EMULATOR_PORT must be a port number and EMULATOR_LATENCY_MS a non-negative number");
  process.exit(1);
}

const emulator = await startEmulator({
  port,
  defaultLatencyMs,
  host: process.env["EMULATOR_HOST"] ?? "127.0.0.1",
  controlToken: process.env["EMULATOR_CONTROL_TOKEN"] || undefined,
  recordCalls: ["1", "true", "yes"].includes((process.env["EMULATOR_RECORD_CALLS"] ?? "").toLowerCase()),
});
console.log(`provider emulator listening on ${emulator.url}`);
// Whoever started it may script it: the control routes want this header.
console.log(`control routes (/_emulator/*) need the header ${CONTROL_TOKEN_HEADER}: ${emulator.controlToken}`);

const stop = (): void => {
  void emulator.close().then(() => process.exit(0));
};
process.once("SIGINT", stop);
process.once("SIGTERM", stop);
