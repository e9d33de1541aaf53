import type { Request, Response } from "express";
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

/**
 * A limit per key other than the IP (an email address, a user id), shared through Redis like
 * the per-IP ones. `key` runs after the routes' earlier middleware, so it can read what they
 * parsed (e.g. from `res.locals`); keep personal data out of it (hash emails).
 */
export function perKeyRateLimit(
  redis: Redis,
  prefix: string,
  name: string,
  limit: number,
  windowMs: number,
  key: (req: Request, res: Response) => string,
  detail: string,
) {
  return rateLimit({
    windowMs,
    limit,
    standardHeaders: "draft-8",
    legacyHeaders: false,
    keyGenerator: key,
    store: new RedisStore({
      prefix: `${prefix}:rate:${name}:`,
      sendCommand: (command: string, ...args: string[]) => redis.call(command, ...args) as Promise<RedisReply>,
    }),
    handler: (_req, res, _next, options) => {
      res.status(options.statusCode).json({ detail });
    },
  });
}
