import { randomUUID } from "node:crypto";
import { once } from "node:events";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRedis } from "@sd/queue";
import { perIpRateLimit } from "./rate-limit";

/**
 * The per-IP limits as two gateway replicas on one Redis see them: counted together, and a client
 * past its limit refused without another Redis round trip until its window ends.
 */
const redis = createRedis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379", "rate-limit-test");
const prefix = `sdtest-${randomUUID().slice(0, 8)}`;
const servers: Server[] = [];

afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
});

/** A replica: one limited route behind its own limiter instance, on a loopback port. */
async function replica(name: string, limit: number, windowMs: number): Promise<string> {
  const app = express();
  app.get("/limited", perIpRateLimit(redis, prefix, name, limit, windowMs), (_req, res) => {
    res.json({ ok: true });
  });
  const server = app.listen(0, "127.0.0.1");
  servers.push(server);
  await once(server, "listening");
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/limited`;
}

/** The hit count Redis holds for this test's loopback client under the limit `name`. */
async function countInRedis(name: string): Promise<number> {
  const [key] = await redis.keys(`${prefix}:rate:${name}:*`);
  return key === undefined ? 0 : Number(await redis.get(key));
}

describe("per-IP rate limit", () => {
  let replicaA: string;
  let replicaB: string;
  beforeAll(async () => {
    [replicaA, replicaB] = await Promise.all([replica("shared", 3, 60_000), replica("shared", 3, 60_000)]);
  });

  it("counts both replicas' requests together, and refuses the client past the limit without counting in Redis again", async () => {
    const allowed = [await fetch(replicaA), await fetch(replicaB), await fetch(replicaA)];
    expect(allowed.map((answer) => answer.status)).toEqual([200, 200, 200]);

    const refusedByB = await fetch(replicaB);
    expect(refusedByB.status).toBe(429);
    expect(await refusedByB.json()).toEqual({ detail: "Too many requests. Please wait a minute and try again." });
    expect(await countInRedis("shared")).toBe(4);

    // B knows the client is past its limit until the window ends: its refusals cost Redis nothing,
    // and say the same as Redis would (no requests left, the same reset).
    const again = await Promise.all(Array.from({ length: 5 }, () => fetch(replicaB)));
    expect(again.map((answer) => answer.status)).toEqual([429, 429, 429, 429, 429]);
    for (const answer of again) {
      expect(answer.headers.get("ratelimit")).toMatch(/; r=0; t=\d+$/);
      expect(answer.headers.get("ratelimit-policy")).toBe(refusedByB.headers.get("ratelimit-policy"));
      expect(Number(answer.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(Number(answer.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    }
    expect(await countInRedis("shared")).toBe(4);

    // A has not refused the client yet: it asks Redis, which says the limit is used up.
    expect((await fetch(replicaA)).status).toBe(429);
    expect(await countInRedis("shared")).toBe(5);
  });

  it("lets the client in again once its window has ended", async () => {
    const windowMs = 400;
    const url = await replica("short", 1, windowMs);
    expect((await fetch(url)).status).toBe(200);
    const refused = await fetch(url);
    expect(refused.status).toBe(429);
    // The window is what is tested: wait it out (Redis expires the count; this replica forgets the refusal).
    await new Promise((resolve) => setTimeout(resolve, windowMs + 50));
    expect((await fetch(url)).status).toBe(200);
  });
});
