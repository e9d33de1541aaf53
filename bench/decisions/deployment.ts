import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { CONTROL_TOKEN_HEADER, type EmulatorRule } from "@sd/provider-emulator";
import { stopWithin } from "@sd/testing/faults/process-control";
import { freePort, ServiceProcess, waitUntilReady, type ENTRY } from "@sd/testing/processes";
import { BASELINE_LISTENING } from "./baseline-contract";
import type { Variant } from "./options";
import type { MeteredProcess, ProcessGroup } from "../kit";

/** Every process and directory the benchmark made, so an error or Ctrl-C leaves none behind. */
const started = new Set<ServiceProcess>();
const directories = new Set<string>();

/** Kills whatever is still running (SIGKILL: this runs on the way out) and removes the data directories. */
export function killEverything(): void {
  for (const service of started) {
    if (service.child.exitCode === null && service.child.signalCode === null) service.child.kill("SIGKILL");
  }
  started.clear();
  for (const dir of directories) rmSync(dir, { recursive: true, force: true });
  directories.clear();
}
process.once("exit", killEverything);

/** A process of the run, with what the CPU table calls it. */
export interface BenchProcess extends MeteredProcess {
  service: ServiceProcess;
}

function track(service: ServiceProcess, label: string, group: ProcessGroup): BenchProcess {
  started.add(service);
  return { service, label, group, pid: service.pid };
}

/** SIGTERM (the services drain and exit; a profiled one writes its profile), then SIGKILL if it takes more than `graceMs`. */
export async function stopProcess(target: BenchProcess, graceMs = 30_000): Promise<void> {
  await stopWithin(target.service, graceMs);
  started.delete(target.service);
}

const EMULATOR_ENTRY = "libs/provider-emulator/src/main.ts";
const BASELINE_ENTRY = "bench/decisions/baseline-server.ts";

export interface EmulatorProcess extends BenchProcess {
  url: string;
  /** Appends rules through the control routes (e.g. each model's latency for tagged questions). */
  addRules(rules: EmulatorRule[]): Promise<void>;
}

/** The provider emulator's own standalone entry, in its own process, answering every model after `latencyMs`. */
export async function startEmulatorProcess(latencyMs: number): Promise<EmulatorProcess> {
  const controlToken = randomBytes(24).toString("base64url");
  const service = ServiceProcess.startScript(EMULATOR_ENTRY, {
    EMULATOR_PORT: "0",
    EMULATOR_LATENCY_MS: String(latencyMs),
    EMULATOR_CONTROL_TOKEN: controlToken,
  });
  const tracked = track(service, "emulator", "emulator");
  const line = await service.waitForLog((l) => l.msg?.startsWith("provider emulator listening on ") === true, "the emulator listened");
  const url = line.msg!.slice("provider emulator listening on ".length).trim();
  return {
    ...tracked,
    url,
    async addRules(rules) {
      const res = await fetch(`${url}/_emulator/rules`, {
        method: "POST",
        headers: { "content-type": "application/json", [CONTROL_TOKEN_HEADER]: controlToken },
        body: JSON.stringify(rules),
      });
      if (!res.ok) throw new Error(`the emulator refused the rules: ${res.status} ${await res.text()}`);
    },
  };
}

/** The direct baseline (baseline-server.ts) in its own process, with the product's provider settings. */
export async function startBaselineProcess(env: Record<string, string>): Promise<BenchProcess & { url: string }> {
  const service = ServiceProcess.startScript(BASELINE_ENTRY, { ...env, PORT: "0" });
  const tracked = track(service, "baseline", "baseline");
  const line = await service.waitForLog((l) => l.msg === BASELINE_LISTENING, "the baseline listened");
  return { ...tracked, url: line.url! };
}

/** One deployment of the product under test, started as an operator would start it. */
export interface Deployment {
  variant: Variant;
  /** The gateway's origin. */
  url: string;
  prefix: string;
  processes: BenchProcess[];
  /** SIGTERM to every process; resolves once all have exited. */
  stop(): Promise<void>;
}

export interface DeploymentOptions {
  /** Extra variables for the gateway process (e.g. MAX_IN_FLIGHT_DECISIONS). */
  gatewayEnv?: Record<string, string>;
  /** Node options of every product process (e.g. `--cpu-prof`). */
  nodeArgs?: (label: string) => string[];
}

/**
 * "one": the all-in-one entry (gateway, provider workers and aggregator in one process, the
 * zero-configuration default). "split": the gateway, provider-worker and aggregator entries, one
 * process each. Without MongoDB on this machine, the split gateway and aggregator each keep an
 * embedded store of their own (EMBEDDED_STORE_SPLIT, a single-host deployment); the anonymous
 * decisions measured need nothing the other process stored.
 */
export async function startDeployment(variant: Variant, env: Record<string, string>, options: DeploymentOptions = {}): Promise<Deployment> {
  directories.add(env.DATA_DIR!);
  const nodeArgs = options.nodeArgs ?? (() => []);
  const start = (entry: keyof typeof ENTRY, label: string, vars: Record<string, string>) =>
    track(ServiceProcess.start(entry, vars, nodeArgs(label)), label, "product");
  const port = await freePort();
  const gatewayVars = { ...env, PORT: String(port), ...options.gatewayEnv };
  const readiness: Promise<void>[] = [];
  const processes: BenchProcess[] = [];
  if (variant === "one") {
    const all = start("all-in-one", "all-in-one", gatewayVars);
    processes.push(all);
    readiness.push(waitUntilReady(`http://127.0.0.1:${port}/ready`, all.service));
  } else {
    const aggregatorDir = `${env.DATA_DIR}-aggregator`;
    directories.add(aggregatorDir);
    const [workerPort, aggregatorPort] = [await freePort(), await freePort()];
    const gateway = start("gateway", "gateway", { ...gatewayVars, EMBEDDED_STORE_SPLIT: "true" });
    const worker = start("provider-worker", "provider-worker", { ...env, HEALTH_PORT: String(workerPort) });
    const aggregator = start("aggregator", "aggregator", {
      ...env,
      HEALTH_PORT: String(aggregatorPort),
      EMBEDDED_STORE_SPLIT: "true",
      DATA_DIR: aggregatorDir,
    });
    processes.push(gateway, worker, aggregator);
    readiness.push(
      waitUntilReady(`http://127.0.0.1:${port}/ready`, gateway.service),
      waitUntilReady(`http://127.0.0.1:${workerPort}/ready`, worker.service),
      waitUntilReady(`http://127.0.0.1:${aggregatorPort}/ready`, aggregator.service),
    );
  }
  try {
    await Promise.all(readiness);
  } catch (error) {
    await Promise.all(processes.map((p) => stopProcess(p, 0)));
    throw error;
  }
  return {
    variant,
    url: `http://127.0.0.1:${port}`,
    prefix: env.QUEUE_PREFIX!,
    processes,
    stop: async () => {
      await Promise.all(processes.map((p) => stopProcess(p)));
    },
  };
}
