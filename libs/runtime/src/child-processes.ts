import { fork, type ChildProcess } from "node:child_process";
import type { Logger, ProcessMetrics } from "@sd/telemetry";

/** The variable naming a forked child on its log lines (`provider-worker-1`...). */
export const CHILD_NAME_VARIABLE = "SD_CHILD_PROCESS_NAME";

/** What a child sends its parent over the IPC channel (see `runSupervisedChild`). */
export type ChildMessage = { kind: "ready" } | { kind: "metrics"; id: number; metrics: ProcessMetrics };
/** What a parent sends: a request for the child's metrics, answered with the same id. */
export type ParentMessage = { kind: "metrics-request"; id: number };

/** The `kind` of an IPC message, if it has one. */
export const messageKind = (message: unknown): unknown =>
  typeof message === "object" && message !== null ? (message as { kind?: unknown }).kind : undefined;

/** A child that has not answered a metrics request by then is left out of that scrape. */
const METRICS_TIMEOUT_MS = 1000;

/** One child to keep running: a TypeScript entry (absolute path) and its environment. */
export interface ChildSpec {
  name: string;
  script: string;
  env: NodeJS.ProcessEnv;
}

export interface SupervisedChildren {
  /** Resolves once every child has said it is ready; rejects if one exits before its first time. */
  ready: Promise<void>;
  /** The metrics of every running child that answers within a second. */
  metrics(): Promise<ProcessMetrics[]>;
  /** Sends every child SIGTERM (it drains) and resolves once all have exited; nothing is restarted after. */
  close(): Promise<void>;
}

/** The first restart comes at once (almost); a child that keeps dying young waits twice as long each time. */
const RESTART_BASE_MS = 250;
const RESTART_MAX_MS = 10_000;
/** A child that ran this long before it died is restarted after the shortest wait again. */
const STABLE_MS = 30_000;

/**
 * The child runs TypeScript under the loader this process runs under (`node --import tsx`, the tsx
 * CLI), with its other flags; under another loader (a test runner's) it gets tsx's.
 */
function childExecArgv(): string[] {
  return process.execArgv.some((arg) => arg.includes("tsx")) ? process.execArgv : ["--import", import.meta.resolve("tsx")];
}

interface Slot {
  spec: ChildSpec;
  child: ChildProcess | null;
  exited: Promise<void>;
  startedAt: number;
  everReady: boolean;
  youngDeaths: number;
  timer: NodeJS.Timeout | null;
}

/**
 * Forks `specs` with an IPC channel (a child sees its parent die, even by SIGKILL, as the channel's
 * 'disconnect') and this process's stdout and stderr, so their log lines join this one's. A child
 * that dies after its first start is restarted after a short backoff, logged; one that dies before
 * it was ever ready fails `ready` instead (a bad configuration would only die again).
 */
export function superviseChildren(specs: readonly ChildSpec[], logger: Logger): SupervisedChildren {
  let closing = false;
  let notReady = specs.length;
  let nextRequest = 0;
  const metricsWaiters = new Map<number, (metrics: ProcessMetrics) => void>();
  let settle!: { resolve: () => void; reject: (error: Error) => void };
  const ready = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
  ready.catch(() => undefined); // a caller that shuts down before awaiting it must not see an unhandled rejection
  if (notReady === 0) settle.resolve();

  const start = (slot: Slot): void => {
    slot.timer = null;
    const child = fork(slot.spec.script, [], {
      env: { ...slot.spec.env, [CHILD_NAME_VARIABLE]: slot.spec.name },
      execArgv: childExecArgv(),
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    slot.child = child;
    slot.startedAt = performance.now();
    const tag = { process: slot.spec.name, pid: child.pid };
    child.on("error", (error) => logger.error({ err: error, ...tag }, "child process error"));
    child.on("message", (message: unknown) => {
      if (messageKind(message) === "metrics") {
        const reply = message as Extract<ChildMessage, { kind: "metrics" }>;
        metricsWaiters.get(reply.id)?.(reply.metrics);
        return;
      }
      if (messageKind(message) !== "ready") return;
      logger.info(tag, "child process ready");
      if (slot.everReady) return;
      slot.everReady = true;
      if (--notReady === 0) settle.resolve();
    });
    slot.exited = new Promise((resolve) => {
      child.once("exit", (code, signal) => {
        slot.child = null;
        onExit(slot, { ...tag, code, signal });
        resolve();
      });
    });
  };

  const onExit = (slot: Slot, exit: { process: string; pid: number | undefined; code: number | null; signal: NodeJS.Signals | null }): void => {
    if (closing) {
      logger.info(exit, "child process stopped");
      return;
    }
    if (!slot.everReady) {
      settle.reject(new Error(`${slot.spec.name} exited (${exit.code ?? exit.signal}) before it was ready`));
      return;
    }
    slot.youngDeaths = performance.now() - slot.startedAt < STABLE_MS ? slot.youngDeaths + 1 : 1;
    const delay = Math.min(RESTART_MAX_MS, RESTART_BASE_MS * 2 ** (slot.youngDeaths - 1));
    logger.warn({ ...exit, restart_in_ms: delay }, "child process exited unexpectedly; restarting it");
    slot.timer = setTimeout(() => start(slot), delay);
  };

  const slots: Slot[] = specs.map((spec) => ({
    spec,
    child: null,
    exited: Promise.resolve(),
    startedAt: 0,
    everReady: false,
    youngDeaths: 0,
    timer: null,
  }));
  for (const slot of slots) start(slot);

  const childMetrics = (child: ChildProcess): Promise<ProcessMetrics | null> => {
    const id = nextRequest++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => done(null), METRICS_TIMEOUT_MS);
      const done = (metrics: ProcessMetrics | null): void => {
        clearTimeout(timer);
        metricsWaiters.delete(id);
        resolve(metrics);
      };
      metricsWaiters.set(id, done);
      child.send({ kind: "metrics-request", id } satisfies ParentMessage, (error) => {
        if (error) done(null);
      });
    });
  };

  return {
    ready,
    async metrics() {
      const running = slots.flatMap((slot) => (slot.child?.connected ? [slot.child] : []));
      const answers = await Promise.all(running.map(childMetrics));
      return answers.filter((metrics): metrics is ProcessMetrics => metrics !== null);
    },
    async close() {
      closing = true;
      settle.reject(new Error("stopped before every child process was ready"));
      for (const slot of slots) {
        if (slot.timer) clearTimeout(slot.timer);
        slot.child?.kill("SIGTERM");
      }
      await Promise.all(slots.map((slot) => slot.exited));
    },
  };
}
