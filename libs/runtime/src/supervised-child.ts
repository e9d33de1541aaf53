import { createLogger, registry } from "@sd/telemetry";
import { CHILD_NAME_VARIABLE, messageKind, type ChildMessage, type ParentMessage } from "./child-processes";
import { Lifecycle } from "./lifecycle";

const send = (message: ChildMessage): void => {
  if (process.connected) process.send?.(message);
};

/**
 * Runs a process forked by `superviseChildren`, as `runMain` runs a service: `start` brings its role
 * up, then the parent is told it is ready. Its log lines carry its name and pid, as they share the
 * parent's output; its metrics go to the parent's /metrics on request. SIGTERM (the parent's, once
 * its gateway has drained) drains it; SIGINT is left to the parent, since Ctrl-C reaches the whole
 * process group. A parent that is gone, however it died, closes the IPC channel: the child then
 * drains and exits by itself, within `orphanDrainMs`.
 */
export function runSupervisedChild(
  service: string,
  logLevel: string,
  start: (lifecycle: Lifecycle) => Promise<void>,
  options: { orphanDrainMs: number },
): void {
  const name = process.env[CHILD_NAME_VARIABLE] ?? service;
  const lifecycle = new Lifecycle(createLogger(service, logLevel).child({ process: name, pid: process.pid }));
  const stop = (reason: string): void => {
    void lifecycle.shutdown(reason).then(() => process.exit(0));
  };
  process.once("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => undefined);
  const orphaned = (): void => {
    // A drain ends with the calls under way; one that cannot (Redis gone) must not leave an orphan
    // behind: its jobs go to the next workers once their locks expire.
    setTimeout(() => process.exit(1), options.orphanDrainMs).unref();
    stop("parent process gone");
  };
  if (!process.connected) {
    process.stderr.write(`\n${name}: started without its parent process (npm start forks it), or the parent is gone\n\n`);
    process.exit(1);
  }
  process.once("disconnect", orphaned);
  process.on("message", (message: unknown) => {
    if (messageKind(message) !== "metrics-request") return;
    const { id } = message as ParentMessage;
    void registry.getMetricsAsJSON().then((metrics) => send({ kind: "metrics", id, metrics }));
  });

  start(lifecycle).then(
    () => send({ kind: "ready" }),
    async (error: unknown) => {
      process.stderr.write(`\n${name}: ${error instanceof Error ? error.message : String(error)}\n\n`);
      await lifecycle.shutdown("failed to start");
      process.exit(1);
    },
  );
}
