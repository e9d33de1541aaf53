import { rateLimit } from "express-rate-limit";
import { RedisStore, type RedisReply } from "rate-limit-redis";
import type { Redis } from "@sd/queue";

const MINUTE = 60_000;

/** Per-IP limit shared by every gateway replica (counters live in Redis). */
export function perIpRateLimit(redis: Redis, prefix: string, name: string, limit: number, windowMs = MINUTE) {
  const wait = windowMs >= 60 * MINUTE ? "an hour" : "a minute";
  return rateLimit({
    windowMs,
    limit,
    standardHeaders: "draft-8",
    legacyHeaders: false,
    store: new RedisStore({
      prefix: `${prefix}:rate:${name}:`,
      sendCommand: (command: string, ...args: string[]) => redis.call(command, ...args) as Promise<RedisReply>,
    }),
    handler: (_req, res, _next, options) => {
      res.status(options.statusCode).json({ detail: `Too many requests. Please wait ${wait} and try again.` });
    },
  });
}
