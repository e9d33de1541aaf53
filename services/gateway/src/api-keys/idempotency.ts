import { createHash } from "node:crypto";
import type { Request } from "express";
import { IDEMPOTENCY_KEY_PATTERN, V1_HEADERS } from "@sd/contracts";
import { deleteIfEqual, idempotencyKey as idempotencyRedisKey, type Redis } from "@sd/queue";
import { HttpError } from "../http/errors";

/** How long a retried request with the same Idempotency-Key returns the first decision. */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 3600;

/** The request's Idempotency-Key, undefined without one; a malformed one is a 400. */
export function readIdempotencyKey(req: Request): string | undefined {
  const value = req.get(V1_HEADERS.idempotencyKey);
  if (value === undefined) return undefined;
  if (!IDEMPOTENCY_KEY_PATTERN.test(value)) {
    throw new HttpError(400, `${V1_HEADERS.idempotencyKey} must be 1 to 255 visible ASCII characters (no spaces), e.g. a UUID.`);
  }
  return value;
}

/** SHA-256 of a request body as validated (so the same request written differently is the same body). */
export function bodyFingerprint(body: unknown): string {
  return createHash("sha256").update(JSON.stringify(body)).digest("hex");
}

/** What an Idempotency-Key says about a request: run it (`new`), answer an earlier one (`replay`), or refuse it (`conflict`). */
export type IdempotencyClaim = { kind: "new"; decisionId: string } | { kind: "replay"; decisionId: string } | { kind: "conflict" };

interface IdempotencyRecord {
  body_hash: string;
  decision_id: string;
}

/**
 * Idempotency records of `/v1` requests, per API key, in Redis for 24 hours: the first request
 * with a key stores its body hash and decision id (SET NX, so of two concurrent requests exactly
 * one starts the decision); a retry with the same body gets that decision, with another body a
 * conflict. Redis, not the store: records are short-lived and shared by every gateway replica.
 */
export class IdempotencyRecords {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async claim(apiKeyId: string, idempotencyKey: string, bodyHash: string, decisionId: string): Promise<IdempotencyClaim> {
    const key = this.key(apiKeyId, idempotencyKey);
    const record = JSON.stringify({ body_hash: bodyHash, decision_id: decisionId } satisfies IdempotencyRecord);
    for (let attempt = 1; ; attempt++) {
      if ((await this.redis.set(key, record, "EX", IDEMPOTENCY_TTL_SECONDS, "NX")) === "OK") return { kind: "new", decisionId };
      const existing = await this.redis.get(key);
      // Expired between the two commands: claim it again.
      if (existing === null && attempt < 3) continue;
      if (existing === null) throw new Error("idempotency record vanished repeatedly");
      const earlier = JSON.parse(existing) as IdempotencyRecord;
      return earlier.body_hash === bodyHash ? { kind: "replay", decisionId: earlier.decision_id } : { kind: "conflict" };
    }
  }

  /** Forgets a claim whose decision could not be submitted, so a retry runs it instead of waiting for nothing. */
  async release(apiKeyId: string, idempotencyKey: string, bodyHash: string, decisionId: string): Promise<void> {
    const record = JSON.stringify({ body_hash: bodyHash, decision_id: decisionId } satisfies IdempotencyRecord);
    // Only while the record still names the decision that failed to start.
    await deleteIfEqual(this.redis, this.key(apiKeyId, idempotencyKey), record);
  }

  private key(apiKeyId: string, idempotencyKey: string): string {
    // Hashed: the client's text never becomes part of a Redis key name as it was sent.
    return idempotencyRedisKey(this.prefix, apiKeyId, createHash("sha256").update(idempotencyKey).digest("hex"));
  }
}
