import type { IncomingMessage, ServerResponse } from "node:http";
import type { Request, RequestHandler, Response } from "express";
import { rateLimit, type ClientRateLimitInfo, type IncrementResponse, type Options, type Store } from "express-rate-limit";
import { RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import { RedisStore, type RedisReply } from "rate-limit-redis";
import { byteRateLimitKeyPrefix, rateLimitKeyPrefix, type Redis } from "@sd/queue";

const MINUTE = 60_000;
const MEGABYTE = 1024 * 1024;

/** Where the JSON parser leaves the size of the body it read (see `recordBodyBytes`). */
const BODY_BYTES = "bodyBytes";
/** Where `perIpByteLimit` leaves the count of a body whose size is known only once it is read. */
const COUNT_WHEN_READ = "countBodyBytesWhenRead";

/** `verify` hook of express.json: remembers how many bytes the body had, for `perIpByteLimit`. */
export function recordBodyBytes(_req: IncomingMessage, res: ServerResponse, body: Buffer): void {
  // Express hands the parser its own response, which carries `locals`.
  (res as Response).locals[BODY_BYTES] = body.length;
}

/** The body's declared length, or null when it has none (chunked) or an unreadable one. */
function declaredLength(req: Request): number | null {
  const header = req.headers["content-length"];
  if (header === undefined || !/^\d+$/.test(header)) return null;
  return Number(header);
}

/**
 * After a route's body parser (see http/json-body.ts): counts the bytes of a body that declared no
 * length on the byte budget, now that they are known; a request past it is answered 429.
 */
export const countBytesRead: RequestHandler = (req, res, next) => {
  const count = res.locals[COUNT_WHEN_READ] as RequestHandler | undefined;
  if (count === undefined) return next();
  delete res.locals[COUNT_WHEN_READ];
  return count(req, res, next);
};

/**
 * Request-body bytes per minute per IP, shared by every gateway replica (counted in Redis): a
 * decision's images are held in Redis while it runs, so the number of requests alone would let
 * one address fill it with 45 MB bodies. Runs before the body is read and counts its declared
 * Content-Length, so a body past the budget is refused unread; a body without one (chunked) is
 * counted once the route's parser has read it (`countBytesRead`). A request past the budget is
 * answered 429 before anything is stored, and does not count (a smaller one may still fit). A
 * request larger than the whole budget is always refused.
 */
export function perIpByteLimit(redis: Redis, prefix: string, megabytesPerMinute: number): RequestHandler {
  const limiter = new RateLimiterRedis({
    storeClient: redis,
    keyPrefix: byteRateLimitKeyPrefix(prefix),
    points: megabytesPerMinute * MEGABYTE,
    duration: MINUTE / 1000,
  });
  const charge = (req: Request, res: Response, next: (error?: unknown) => void, bytes: number) => {
    if (bytes === 0) return next();
    const ip = req.ip ?? "unknown";
    limiter.consume(ip, bytes).then(
      () => next(),
      async (rejection: unknown) => {
        if (!(rejection instanceof RateLimiterRes)) return next(rejection);
        // A refused body never reaches Redis: it does not use up what is left of the budget.
        await limiter.reward(ip, bytes).catch(() => undefined);
        res.set("Retry-After", String(Math.max(1, Math.ceil(rejection.msBeforeNext / 1000))));
        res.status(429).json({ detail: "Too many requests. Please wait a minute and try again." });
      },
    );
  };
  return (req, res, next) => {
    const declared = declaredLength(req);
    if (declared !== null) return charge(req, res, next, declared);
    const countWhenRead: RequestHandler = (readReq, readRes, readNext) => charge(readReq, readRes, readNext, Number(readRes.locals[BODY_BYTES] ?? 0));
    res.locals[COUNT_WHEN_READ] = countWhenRead;
    next();
  };
}

/** Keys remembered as past their limit at most; past that, new ones are counted in Redis only. */
const MAX_REMEMBERED_REFUSALS = 10_000;

/**
 * The limits' counters in Redis (shared by every gateway replica), and in this process the keys
 * already past their limit, until their window ends: a client that keeps sending after its 429
 * is refused without a Redis round trip each time. That answer is the one Redis would give: the
 * windows are fixed, so a key past its limit stays past it until the reset time Redis reported,
 * and a refused request cannot bring it back under. Only the count the headers do not show (hits
 * past the limit) is kept here instead of in Redis.
 */
class RedisStoreRememberingRefusals implements Store {
  readonly localKeys = false;
  readonly #redis: RedisStore;
  readonly #refused = new Map<string, { totalHits: number; resetTime: Date }>();
  /** No remembered entry expires before this (ms): while the map is full, no scan can free room sooner. */
  #nothingExpiresBefore = 0;
  #limit = Number.POSITIVE_INFINITY;

  constructor(redis: RedisStore) {
    this.#redis = redis;
  }

  /** express-rate-limit's check that a request is counted once per store reads the key prefix. */
  get prefix(): string {
    return this.#redis.prefix;
  }

  init(options: Options): Promise<void> {
    // A limit computed per request is not known here: then nothing is remembered.
    if (typeof options.limit === "number") this.#limit = options.limit;
    return this.#redis.init(options);
  }

  get(key: string): Promise<ClientRateLimitInfo | undefined> {
    return this.#redis.get(key);
  }

  async increment(key: string): Promise<IncrementResponse> {
    const refused = this.#refused.get(key);
    if (refused !== undefined) {
      if (refused.resetTime.getTime() > Date.now()) {
        refused.totalHits++;
        return { totalHits: refused.totalHits, resetTime: refused.resetTime };
      }
      this.#refused.delete(key);
    }
    const counted = await this.#redis.increment(key);
    if (counted.totalHits > this.#limit && counted.resetTime !== undefined) this.#remember(key, counted.totalHits, counted.resetTime);
    return counted;
  }

  decrement(key: string): Promise<void> {
    return this.#redis.decrement(key);
  }

  resetKey(key: string): Promise<void> {
    this.#refused.delete(key);
    return this.#redis.resetKey(key);
  }

  #remember(key: string, totalHits: number, resetTime: Date): void {
    if (this.#refused.size >= MAX_REMEMBERED_REFUSALS) {
      const now = Date.now();
      // Full of live entries (many clients past their limits at once): count this one in Redis,
      // without scanning again before one of them can have expired.
      if (now < this.#nothingExpiresBefore) return;
      let earliest = Number.POSITIVE_INFINITY;
      for (const [known, entry] of this.#refused) {
        const reset = entry.resetTime.getTime();
        if (reset <= now) this.#refused.delete(known);
        else earliest = Math.min(earliest, reset);
      }
      this.#nothingExpiresBefore = earliest;
      if (this.#refused.size >= MAX_REMEMBERED_REFUSALS) return;
    }
    this.#refused.set(key, { totalHits, resetTime });
  }
}

function redisStore(redis: Redis, prefix: string, name: string): Store {
  return new RedisStoreRememberingRefusals(
    new RedisStore({
      prefix: rateLimitKeyPrefix(prefix, name),
      sendCommand: (command: string, ...args: string[]) => redis.call(command, ...args) as Promise<RedisReply>,
    }),
  );
}

/** Per-IP limit shared by every gateway replica (counters live in Redis). */
export function perIpRateLimit(redis: Redis, prefix: string, name: string, limit: number, windowMs = MINUTE) {
  const wait = windowMs >= 60 * MINUTE ? "an hour" : "a minute";
  return rateLimit({
    windowMs,
    limit,
    standardHeaders: "draft-8",
    legacyHeaders: false,
    store: redisStore(redis, prefix, name),
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
    store: redisStore(redis, prefix, name),
    handler: (_req, res, _next, options) => {
      res.status(options.statusCode).json({ detail });
    },
  });
}
