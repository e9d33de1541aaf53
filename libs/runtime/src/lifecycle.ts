import { createLogger, type Logger } from "@sd/telemetry";

type Closer = { name: string; close: () => Promise<void> };

/**
 * Graceful shutdown: closers run in the reverse order of registration (stop taking HTTP requests
 * and jobs first, let active jobs finish, then close connections), once, on SIGTERM or SIGINT.
 */
export class Lifecycle {
  private readonly closers: Closer[] = [];
  private closing: Promise<void> | null = null;

  constructor(readonly logger: Logger) {}

  onShutdown(name: string, close: () => Promise<void>): void {
    this.closers.push({ name, close });
  }

  shutdown(reason: string): Promise<void> {
    this.closing ??= (async () => {
      this.logger.info({ reason }, "shutting down");
      for (const closer of [...this.closers].reverse()) {
        try {
          await closer.close();
        } catch (error) {
          this.logger.error({ err: error, closer: closer.name }, "error while shutting down");
        }
      }
      this.logger.info("stopped");
    })();
    return this.closing;
  }
}

/**
 * Runs a process: `start` brings its roles up and registers their closers. A failure to start
 * (bad configuration, Redis down...) prints one clear message and exits 1; SIGTERM/SIGINT drain
 * and exit 0.
 */
export function runMain(service: string, logLevel: string, start: (lifecycle: Lifecycle) => Promise<void>): void {
  const lifecycle = new Lifecycle(createLogger(service, logLevel));
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      void lifecycle.shutdown(signal).then(() => process.exit(0));
    });
  }
  start(lifecycle).catch(async (error: unknown) => {
    process.stderr.write(`\n${service}: ${error instanceof Error ? error.message : String(error)}\n\n`);
    await lifecycle.shutdown("failed to start");
    process.exit(1);
  });
}

/** Reads the environment before anything else; a bad variable ends the process with its name. */
export function envOrExit<T>(load: () => T): T {
  try {
    return load();
  } catch (error) {
    process.stderr.write(`\n${error instanceof Error ? error.message : String(error)}\n\n`);
    process.exit(1);
  }
}
