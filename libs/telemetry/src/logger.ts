import { pino, type DestinationStream, type Logger } from "pino";

export type { Logger };

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
