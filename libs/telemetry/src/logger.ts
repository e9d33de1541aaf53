import { pino, type Logger } from "pino";

export type { Logger };

/** One JSON logger per process; `service` names the role on every line. */
export function createLogger(service: string, level = "info"): Logger {
  return pino({ level, base: { service }, timestamp: pino.stdTimeFunctions.isoTime });
}
