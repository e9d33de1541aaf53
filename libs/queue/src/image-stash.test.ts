import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { createRedis, createRequestRedis, isRedisUnavailable } from "./redis";
import { openRedisMonitor } from "./redis-monitor";
import { ImageExpiredError, ImageStash } from "./image-stash";

const REDIS_URL = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
const redis = createRedis(REDIS_URL, "image-stash-test");
const prefix = `sdtest-stash-${randomUUID().slice(0, 8)}`;
const stash = new ImageStash(redis, prefix);
afterAll(() => redis.disconnect());

const png = (bytes: number, fill = 1) => `data:image/png;base64,${Buffer.alloc(bytes, fill).toString("base64")}`;

describe("ImageStash", () => {
  it("a write that timed out on the gateway's side leaves nothing behind once Redis has run it", async () => {
    // A 1 ms command timeout: ours gives up long before Redis has taken in 3 x 9.9 MB.
    const impatient = createRequestRedis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379", "image-stash-timeout-test", 1);
    try {
      // Its timed-out commands are the point here; the gateway logs such errors from its own handler.
      impatient.on("error", () => undefined);
      await new Promise((resolve) => impatient.once("ready", resolve));
      const decisionId = randomUUID();
      const failure = await new ImageStash(impatient, prefix).put(decisionId, [png(9_900_000, 1), png(9_900_000, 2), png(9_900_000, 3)], 3600).then(
        () => null,
        (error: unknown) => error,
      );
      expect(isRedisUnavailable(failure)).toBe(true);
      // Read on another connection after a round trip on the same one, so the writes and the DEL have run.
      await redis.ping();
      await expect.poll(async () => (await redis.keys(`${prefix}:images:${decisionId}:*`)).length, { timeout: 5000, interval: 50 }).toBe(0);
      expect(await redis.exists(`${prefix}:images:${decisionId}:1`)).toBe(0);
    } finally {
      impatient.disconnect();
    }
  });


  it("stores each image once, under the queue prefix, with a bounded life, and hands out references", async () => {
    const decisionId = randomUUID();
    const images = [png(3000), `data:image/JPEG;base64,${Buffer.alloc(10, 2).toString("base64")}`];
    const refs = await stash.put(decisionId, images, 120);
    expect(refs).toEqual([
      { key: expect.stringMatching(new RegExp(`^${prefix}:`)), label: "image1", image_type: "image/png", file_size: 3000 },
      { key: expect.stringMatching(new RegExp(`^${prefix}:`)), label: "image2", image_type: "image/jpeg", file_size: 10 },
    ]);
    for (const ref of refs) {
      const ttl = await redis.ttl(ref.key);
      expect(ttl).toBeGreaterThan(100);
      expect(ttl).toBeLessThanOrEqual(120);
    }
    // A reference is small whatever the image's size: that is what the jobs carry.
    expect(JSON.stringify(refs[0]).length).toBeLessThan(200);
    expect(await stash.readAll(refs)).toEqual(images);
  });

  it("reads a missing image as null, and readAll names the ones that are gone", async () => {
    const refs = await stash.put(randomUUID(), [png(10), png(20), png(30)], 60);
    await redis.del(refs[1]!.key, refs[2]!.key);
    expect(await stash.read(refs)).toEqual([png(10), null, null]);
    const error = await stash.readAll(refs).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImageExpiredError);
    expect((error as ImageExpiredError).labels).toEqual(["image2", "image3"]);
    expect((error as Error).message).toBe(
      "The decision's images (image2, image3) expired before this model could read them. Please send the decision again.",
    );
  });

  it("serves the models of one decision reading its images at the same moment with one MGET, and keeps nothing after", async () => {
    const images = [png(200_000, 7), png(100_000, 8)];
    const refs = await stash.put(randomUUID(), images, 60);
    // Every command Redis runs on these images, seen from a connection of its own.
    const reads: string[] = [];
    const marker = `done-${randomUUID()}`;
    let markerSeen = () => {};
    const allSeen = new Promise<void>((resolve) => (markerSeen = resolve));
    const monitor = await openRedisMonitor(REDIS_URL, (name, firstArg) => {
      if (firstArg === refs[0]!.key) reads.push(name);
      // MONITOR shows commands in the order Redis ran them: once it shows the marker, it has shown the reads.
      if (name === "echo" && firstArg === marker) markerSeen();
    });
    try {
      // Three models at once (one each image set, one the first image alone), then one later.
      const [a, b, c] = await Promise.all([stash.readAll(refs), stash.readAll(refs), stash.read([refs[0]!])]);
      expect([a, b, c]).toEqual([images, images, [images[0]]]);
      await stash.readAll(refs);
      await redis.echo(marker);
      await allSeen;
      expect(reads).toEqual(["mget", "mget"]);
      // A read after its images were deleted finds them gone: nothing was kept in the process.
      await stash.delete(refs);
      expect(await stash.read(refs)).toEqual([null, null]);
    } finally {
      monitor.destroy();
    }
  });

  it("never reads a key from outside the stash, whatever a job names", async () => {
    const outside = `${prefix}:not-an-image`;
    await redis.set(outside, "secret", "EX", 60);
    expect(await stash.read([{ key: outside, label: "image1", image_type: "image/png", file_size: 1 }])).toEqual([null]);
  });

  it("deletes a decision's images, and deleting again is harmless", async () => {
    const refs = await stash.put(randomUUID(), [png(10)], 60);
    await stash.delete(refs);
    expect(await redis.exists(refs[0]!.key)).toBe(0);
    await stash.delete(refs);
    expect(await stash.put(randomUUID(), [], 60)).toEqual([]);
  });
});
