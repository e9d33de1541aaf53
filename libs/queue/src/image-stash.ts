import type { Redis } from "ioredis";
import { describeImage, type ImageRef } from "@sd/contracts";
import { imageKey, imageKeyBase } from "./queue-keys";

/** An image a job refers to is gone: its key expired (the decision waited longer than its life) or was deleted. */
export class ImageExpiredError extends Error {
  constructor(readonly labels: readonly string[]) {
    super(
      `The decision's ${labels.length === 1 ? "image" : "images"} (${labels.join(", ")}) expired before this model could read ${labels.length === 1 ? "it" : "them"}. Please send the decision again.`,
    );
    this.name = "ImageExpiredError";
  }
}

/**
 * The images of decisions in flight, stored once in Redis (under the queue prefix, with a bounded
 * life) instead of inside every job: jobs carry `ImageRef`s, and the provider workers and the
 * aggregator read the bytes by key. The only place that knows these keys.
 */
export class ImageStash {
  /** The reads in flight, by key; each is dropped once it has settled, so nothing is kept. */
  readonly #reading = new Map<string, Promise<string | null>>();

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  /**
   * Stores a decision's images (data URLs, in the order sent) for `ttlSeconds` and returns their
   * references, labelled image1, image2, ... A decision still unfinished after that gets error
   * votes, and Redis never keeps an abandoned decision's images.
   */
  async put(decisionId: string, images: readonly string[], ttlSeconds: number): Promise<ImageRef[]> {
    if (images.length === 0) return [];
    const refs = images.map((image, index): ImageRef => ({ key: this.key(decisionId, index + 1), label: `image${index + 1}`, ...describeImage(image) }));
    const write = this.redis.multi();
    images.forEach((image, index) => write.set(refs[index]!.key, image, "EX", ttlSeconds));
    try {
      const results = await write.exec();
      const failed = results?.find(([error]) => error !== null);
      if (!results || failed) throw failed?.[0] ?? new Error("Storing the decision's images in Redis was aborted.");
    } catch (error) {
      // A write that timed out on our side may still complete in Redis: remove what it stored (the
      // DEL follows it on the same connection) rather than leave up to 30 MB until the TTL.
      await this.delete(refs).catch(() => undefined);
      throw error;
    }
    return refs;
  }

  /**
   * Each image's data URL, in the order of `refs`; null for one that expired or was deleted. Reads
   * of the same image at the same moment share one: the models of a decision, served by one
   * process, start at about the same time, and each would otherwise fetch the same 30 MB.
   */
  async read(refs: readonly ImageRef[]): Promise<(string | null)[]> {
    // A key from outside the stash reads as missing: job data never makes a worker read other Redis keys.
    const keys = refs.map((ref) => ref.key).filter((key) => key.startsWith(this.keyBase()));
    if (keys.length === 0) return refs.map(() => null);
    const unread = keys.filter((key) => !this.#reading.has(key));
    if (unread.length > 0) {
      const values = this.redis.mget(...unread);
      unread.forEach((key, i) => {
        const value = values.then((all) => all[i] ?? null);
        this.#reading.set(key, value);
        const done = () => void this.#reading.delete(key);
        value.then(done, done);
      });
    }
    const values = await Promise.all(keys.map((key) => this.#reading.get(key)!));
    const byKey = new Map(keys.map((key, i) => [key, values[i] ?? null]));
    return refs.map((ref) => byKey.get(ref.key) ?? null);
  }

  /** Every image's data URL, in order; rejects with ImageExpiredError naming the ones that are gone. */
  async readAll(refs: readonly ImageRef[]): Promise<string[]> {
    const values = await this.read(refs);
    const missing = refs.filter((_, i) => values[i] === null).map((ref) => ref.label);
    if (missing.length > 0) throw new ImageExpiredError(missing);
    return values as string[];
  }

  /** Drops the images once nothing needs them any more (deleting twice is harmless). */
  async delete(refs: readonly ImageRef[]): Promise<void> {
    const keys = refs.map((ref) => ref.key).filter((key) => key.startsWith(this.keyBase()));
    if (keys.length > 0) await this.redis.del(...keys);
  }

  private keyBase(): string {
    return imageKeyBase(this.prefix);
  }

  private key(decisionId: string, position: number): string {
    return imageKey(this.prefix, decisionId, position);
  }
}
