import { rateLimit } from "express-rate-limit";
import { RedisStore, type RedisReply } from "rate-limit-redis";
import type { Redis } from "@sd/queue";

/** Per-IP limit shared by every gateway replica (counters live in Redis). */
export function perIpRateLimit(redis: Redis, prefix: string, name: string, perMinute: number) {
  return rateLimit({
    windowMs: 60_000,
    limit: perMinute,
    standardHeaders: "draft-8",
    legacyHeaders: false,
    store: new RedisStore({
      prefix: `${prefix}:rate:${name}:`,
      sendCommand: (command: string, ...args: string[]) => redis.call(command, ...args) as Promise<RedisReply>,
    }),
    handler: (_req, res, _next, options) => {
      res.status(options.statusCode).json({ detail: "Too many requests. Please wait a minute and try again." });
    },
  });
}
