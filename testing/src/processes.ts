import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createServer, type AddressInfo } from "node:net";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const ENTRY = {
  "all-in-one": "services/all-in-one/src/main.ts",
  gateway: "services/gateway/src/main.ts",
  "provider-worker": "services/provider-worker/src/main.ts",
  aggregator: "services/aggregator/src/main.ts",
} as const;

export interface LogLine {
  msg?: string;
  url?: string;
  [key: string]: unknown;
}

/** A service started as its own Node process, as an operator would run it. */
export class ServiceProcess {
  readonly lines: LogLine[] = [];
  stderr = "";
  private readonly waiters: { match: (line: LogLine) => boolean; resolve: (line: LogLine) => void }[] = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /**
   * Resolves when the service's stdout is closed: the service and every process it forked (they
   * share its stdout) have exited.
   */
  readonly outputClosed: Promise<void>;

  private constructor(readonly child: ChildProcess) {
    this.exited = once(child, "exit").then(([code, signal]) => ({ code: code as number | null, signal: signal as NodeJS.Signals | null }));
    const output = createInterface({ input: child.stdout! });
    this.outputClosed = once(output, "close").then(() => undefined);
    output.on("line", (text) => {
      let line: LogLine;
      try {
        line = JSON.parse(text) as LogLine;
      } catch {
        line = { msg: text };
      }
      this.lines.push(line);
      for (const waiter of [...this.waiters]) {
        if (waiter.match(line)) {
          this.waiters.splice(this.waiters.indexOf(waiter), 1);
          waiter.resolve(line);
        }
      }
    });
    child.stderr!.on("data", (chunk: Buffer) => {
      this.stderr += chunk.toString();
    });
  }

  /**
   * Runs `node --import tsx <entry>` directly (no wrapper process), so signals reach the service itself.
   * `nodeArgs` go before the script (e.g. `--cpu-prof` for the benchmark's profiles).
   */
  static start(entry: keyof typeof ENTRY, env: Record<string, string>, nodeArgs: readonly string[] = []): ServiceProcess {
    return ServiceProcess.startScript(ENTRY[entry], env, nodeArgs);
  }

  /** As `start`, for any TypeScript entry given by its path from the repository root (the emulator's, the benchmark's baseline). */
  static startScript(script: string, env: Record<string, string>, nodeArgs: readonly string[] = []): ServiceProcess {
    const child = spawn(process.execPath, [...nodeArgs, "--import", "tsx", script], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? "", ...env, LOG_LEVEL: env.LOG_LEVEL === "silent" ? "info" : (env.LOG_LEVEL ?? "info") },
      stdio: ["ignore", "pipe", "pipe"],
    });
    return new ServiceProcess(child);
  }

  /** Resolves with the first log line (past or future) that matches; rejects if the process exits first. */
  waitForLog(match: (line: LogLine) => boolean, what = "log line"): Promise<LogLine> {
    const seen = this.lines.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      this.waiters.push({ match, resolve });
      void this.exited.then(({ code, signal }) =>
        reject(new Error(`process exited (${code ?? signal}) before ${what}\n${this.stderr}`)),
      );
    });
  }

  async gatewayUrl(): Promise<string> {
    const line = await this.waitForLog((l) => l.msg === "gateway listening", "the gateway listened");
    return line.url as string;
  }

  /** The service's own process id (the child is node itself, not a wrapper), for reading its CPU time. */
  get pid(): number {
    return this.child.pid!;
  }

  async stop(signal: NodeJS.Signals = "SIGTERM"): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
    return this.exited;
  }
}

/** A loopback port nothing listens on now (the service binds it right after; loopback ports are not reused that fast). */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Resolves once `url` (a `/ready` probe) answers 200, polling as an orchestrator's readiness probe
 * does: services logging at `warn` print no "listening" line to wait for. Rejects if `service`
 * exits first or after `timeoutMs`.
 */
export async function waitUntilReady(url: string, service: ServiceProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const { exitCode, signalCode } = service.child;
    if (exitCode !== null || signalCode !== null) {
      throw new Error(`process exited (${exitCode ?? signalCode}) before ${url} was ready\n${service.stderr}`);
    }
    const ok = await fetch(url, { signal: AbortSignal.timeout(2000) }).then(
      async (res) => {
        await res.arrayBuffer(); // read to the end, so the connection is released
        return res.status === 200;
      },
      () => false,
    );
    if (ok) return;
    if (performance.now() > deadline) throw new Error(`${url} not ready within ${timeoutMs} ms\n${service.stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
