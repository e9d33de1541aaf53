import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { Redis } from "ioredis";
import { freePort } from "./processes";

const REDIS_SERVER = process.env.REDIS_SERVER_BIN ?? "/usr/bin/redis-server";
const READY_LINE = "Ready to accept connections";

export interface PrivateRedisOptions {
  /** AOF with an fsync per write (`--appendonly yes --appendfsync always`): nothing acknowledged is lost in a crash. */
  appendOnly?: boolean;
}

/** Every server still running and its directory, so a test run or the chaos bench that dies leaves neither behind. */
const running = new Map<ChildProcess, string>();
process.once("exit", () => {
  for (const [child, dir] of running) {
    child.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  }
});

/**
 * A `redis-server` of its own on a loopback port, in a temporary directory, as a child process: a
 * Redis the tests may crash (SIGKILL), stop cleanly (SIGTERM), hang (SIGSTOP) and bring back on
 * the same port, without touching the shared Redis other test files use.
 */
export class PrivateRedis {
  private child: ChildProcess | null = null;
  private log = "";
  private paused = false;

  private constructor(
    readonly port: number,
    readonly dir: string,
    private options: PrivateRedisOptions,
  ) {}

  static async start(options: PrivateRedisOptions = {}): Promise<PrivateRedis> {
    const redis = new PrivateRedis(await freePort(), mkdtempSync(join(tmpdir(), "sd-redis-")), options);
    await redis.launch();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    return this.child !== null;
  }

  /** Starts the server and resolves once its log says it accepts connections (after replaying its AOF, if any). */
  private async launch(): Promise<void> {
    const args = ["--port", String(this.port), "--bind", "127.0.0.1", "--dir", this.dir, "--daemonize", "no", "--save", "", "--logfile", ""];
    args.push(...(this.options.appendOnly ? ["--appendonly", "yes", "--appendfsync", "always"] : ["--appendonly", "no"]));
    const child = spawn(REDIS_SERVER, args, { stdio: ["ignore", "pipe", "pipe"] });
    running.set(child, this.dir);
    this.child = child;
    this.paused = false;
    this.log = "";
    const exited = once(child, "exit");
    void exited.then(() => {
      running.delete(child);
      if (this.child === child) this.child = null;
    });
    const ready = new Promise<void>((resolve) => {
      createInterface({ input: child.stdout! }).on("line", (line) => {
        this.log += `${line}\n`;
        if (line.includes(READY_LINE)) resolve();
      });
    });
    child.stderr!.on("data", (chunk: Buffer) => (this.log += chunk.toString()));
    const early = exited.then(([code, signal]) => {
      throw new Error(`redis-server on port ${this.port} exited (${String(code ?? signal)}) before it was ready:\n${this.log}`);
    });
    await Promise.race([ready, early]);
  }

  /** SIGKILL is a crash (with AOF always, nothing acknowledged is lost); SIGTERM a clean shutdown. Resolves once it exited. */
  async stop(signal: "SIGKILL" | "SIGTERM" = "SIGTERM"): Promise<void> {
    const child = this.child;
    if (!child) return;
    const exited = once(child, "exit");
    child.kill(signal);
    // A stopped process acts on SIGTERM only once continued.
    if (this.paused && signal !== "SIGKILL") child.kill("SIGCONT");
    await exited;
  }

  /** Freezes the server (SIGSTOP): connections stay open but nothing is answered, as with a hung Redis. */
  pause(): void {
    this.child?.kill("SIGSTOP");
    this.paused = true;
  }

  resume(): void {
    this.child?.kill("SIGCONT");
    this.paused = false;
  }

  /** Stops the server (crash by default) and starts it again on the same port and directory; `options` may change persistence. */
  async restart(signal: "SIGKILL" | "SIGTERM" = "SIGKILL", options: PrivateRedisOptions = this.options): Promise<void> {
    await this.stop(signal);
    this.options = options;
    await this.launch();
  }

  /** One `INFO` section as fields, e.g. `info("memory").used_memory`. */
  async info(section = "memory"): Promise<Record<string, string>> {
    const text = await this.command((client) => client.info(section));
    return Object.fromEntries(
      text
        .split("\r\n")
        .filter((line) => line.includes(":") && !line.startsWith("#"))
        .map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 1)]),
    );
  }

  /** Number of keys in the server. */
  dbsize(): Promise<number> {
    return this.command((client) => client.dbsize());
  }

  /** Runs commands on a short-lived connection that fails at once instead of waiting for a server that is down. */
  async command<T>(run: (client: Redis) => Promise<T>): Promise<T> {
    const client = new Redis(this.url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, enableOfflineQueue: false });
    client.on("error", () => undefined); // reported by connect() or the command
    try {
      await client.connect();
      return await run(client);
    } finally {
      client.disconnect();
    }
  }

  /** Kills the server, whatever state it is in, and removes its directory. Safe to call twice. */
  async close(): Promise<void> {
    await this.stop("SIGKILL");
    rmSync(this.dir, { recursive: true, force: true });
  }
}
