import { pino, type DestinationStream, type Logger } from "pino";
import { redactLogFields, redactString, serializeError } from "./log-redaction";

export type { Logger };

/** The number pino writes as `level` on each JSON line for a level name (info 30, warn 40, error 50). */
export function logLevelNumber(level: "info" | "warn" | "error"): number {
  return pino.levels.values[level]!;
}

/**
 * One JSON logger per process; `service` names the role on every line. Every field passes through
 * the redaction in log-redaction.ts (errors lose their command arguments and bodies, data URLs and
 * long strings are cut), so no call site can put a client's data in the log.
 */
export function createLogger(service: string, level = "info", destination?: DestinationStream): Logger {
  return pino({
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    // Request logs carry headers: never write credentials to the log.
    redact: { paths: ["req.headers.authorization", "req.headers.cookie", 'req.headers["sd-api-key"]', 'res.headers["set-cookie"]'], censor: "[redacted]" },
    serializers: { err: serializeError, error: serializeError },
    formatters: { log: redactLogFields },
    hooks: {
      logMethod(args, method) {
        method.apply(this, args.map((arg) => (typeof arg === "string" ? redactString(arg) : arg)) as Parameters<typeof method>);
      },
    },
  }, destination);
}
