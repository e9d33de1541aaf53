import { afterAll, beforeAll, beforeEach } from "vitest";
import { startEmulator, type Emulator, type EmulatorOptions } from "./server";

/**
 * One emulator for a test file, recording its calls: started before its tests, closed after them, and reset (rules
 * and call log) before each test. Returns a handle that forwards to the running emulator.
 */
export function useEmulator(options: EmulatorOptions = {}): Emulator {
  let running: Emulator | undefined;
  beforeAll(async () => {
    // Tests read the questions the models were asked; the product never keeps them.
    running = await startEmulator({ recordCalls: true, ...options });
  });
  afterAll(async () => {
    await running?.close();
  });
  beforeEach(() => running?.reset());
  return new Proxy({} as Emulator, {
    get(_target, key) {
      if (!running) throw new Error("the emulator starts in beforeAll: use it inside hooks and tests");
      const value: unknown = Reflect.get(running, key);
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(running) : value;
    },
  });
}

export { EmulatorLabClient, labelledQuestion } from "./lab-client";
export { LAB_DESCRIPTION, type LabConfig, type LabState } from "./lab";
