import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));
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

  private constructor(readonly child: ChildProcess) {
    this.exited = once(child, "exit").then(([code, signal]) => ({ code: code as number | null, signal: signal as NodeJS.Signals | null }));
    createInterface({ input: child.stdout! }).on("line", (text) => {
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

  /** Runs `node --import tsx <entry>` directly (no wrapper process), so signals reach the service itself. */
  static start(entry: keyof typeof ENTRY, env: Record<string, string>): ServiceProcess {
    const child = spawn(process.execPath, ["--import", "tsx", ENTRY[entry]], {
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

  async stop(signal: NodeJS.Signals = "SIGTERM"): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
    return this.exited;
  }
}
