import { pino, type DestinationStream, type Logger } from "pino";
import { redactLogFields, redactString } from "./log-redaction";

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
    // pino applies formatters.log before serializers, so by then every field, errors included, is
    // safe: `err` only replaces pino's own serializer, which would read the result again as an error.
    // `msg` is the formatted message, arguments and an error's own message included.
    serializers: { err: (value: unknown) => value, msg: (value: unknown) => (typeof value === "string" ? redactString(value) : value) },
    formatters: { log: redactLogFields },
  }, destination);
}
