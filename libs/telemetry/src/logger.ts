import { pino, type DestinationStream, type Logger } from "pino";

export type { Logger };

/** The number pino writes as `level` on each JSON line for a level name (info 30, warn 40, error 50). */
export function logLevelNumber(level: "info" | "warn" | "error"): number {
  return pino.levels.values[level]!;
}

/** One JSON logger per process; `service` names the role on every line. */
export function createLogger(service: string, level = "info", destination?: DestinationStream): Logger {
  return pino({
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    // Request logs carry headers: never write credentials to the log.
    redact: { paths: ["req.headers.authorization", "req.headers.cookie", 'req.headers["sd-api-key"]', 'res.headers["set-cookie"]'], censor: "[redacted]" },
  }, destination);
}
