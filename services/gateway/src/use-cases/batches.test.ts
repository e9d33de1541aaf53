import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BATCH_MESSAGES, BODY_MESSAGES, MESSAGES, type DecisionRequest } from "@sd/contracts";
import { openStore, type Store } from "@sd/store";
import { BatchLineParser, readLines } from "./batch-lines";
import { BatchUseCases } from "./batches";
import { DomainError } from "./errors";

const DAY_MS = 24 * 3600_000;
const line = (n: number) => JSON.stringify({ custom_id: `c-${n}`, prompt: `Question ${n}?`, valid_responses: ["Yes", "No"] });
const noCheck = (_request: DecisionRequest) => undefined;

function parse(text: string): ReturnType<BatchLineParser["finish"]> {
  const parser = new BatchLineParser(noCheck);
  for (const part of text.split("\n")) parser.push(Buffer.from(part));
  return parser.finish();
}

describe("BatchLineParser", () => {
  it("numbers lines as the file does: blank lines are skipped but counted, CRLF endings are fine", () => {
    const { valid, invalid } = parse(`${line(1)}\r\n\r\n${line(3)}\r\n`);
    expect(valid.map((entry) => [entry.line, entry.custom_id])).toEqual([
      [1, "c-1"],
      [3, "c-3"],
    ]);
    expect(invalid).toEqual([]);
  });

  it("refuses a line nested past the body limit with the body's own text, and reads on", () => {
    const deep = `{"custom_id":"deep","prompt":${"[".repeat(30)}${"]".repeat(30)}}`;
    const { valid, invalid } = parse(`${deep}\n${line(2)}`);
    expect(invalid).toEqual([{ line: 1, custom_id: undefined, message: BODY_MESSAGES.tooDeep }]);
    expect(valid.map((entry) => entry.line)).toEqual([2]);
  });

  it("stops at the 10,001st line with a too-large refusal", () => {
    const parser = new BatchLineParser(noCheck);
    for (let n = 1; n <= 10_000; n++) parser.push(Buffer.from(line(n)));
    expect(() => parser.push(Buffer.from(line(10_001)))).toThrow(new DomainError("too-large", BATCH_MESSAGES.tooManyLines));
  });

  it("refuses a body with no line", () => {
    expect(() => parse("\n \n")).toThrow(BATCH_MESSAGES.emptyBody);
  });
});

describe("readLines", () => {
  async function* chunks(...parts: string[]) {
    for (const part of parts) yield Buffer.from(part);
  }

  it("joins a line split over chunks, and hands over a last line without a line break", async () => {
    const lines: string[] = [];
    await readLines(chunks('{"a":', '1}\n{"b"', ":2}\n", '{"c":3}'), 1000, (text) => lines.push(text.toString()));
    expect(lines).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
  });

  it("refuses more bytes than the limit as soon as they arrive", async () => {
    const lines: string[] = [];
    await expect(readLines(chunks("0123456789\n", "0123456789\n"), 15, (text) => lines.push(text.toString()))).rejects.toThrow(BATCH_MESSAGES.tooLarge(15));
    expect(lines).toEqual(["0123456789"]);
  });
});

describe("BatchUseCases: storing and purging", () => {
  let dir: string;
  let store: Store;
  let now: Date;
  const owner = { userId: "user-1", apiKeyId: "key-1" };
  const started: string[] = [];

  const useCases = (over: Partial<Store> = {}) =>
    new BatchUseCases({
      store: { ...store, ...over } as Store,
      checkEnsemble: noCheck,
      quota: { consumeMany: async () => ({ counted: true }) },
      keyUsage: { countRequests: async () => undefined },
      secondsUntilNextMonth: () => 60,
      runner: { start: async (id) => void started.push(id) },
      now: () => now,
    });

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "sd-batches-"));
    store = await openStore({ mongoUrl: null, dataDir: dir });
    now = new Date(Date.UTC(2025, 0, 1));
    started.length = 0;
  });
  afterEach(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("starts a batch once it is stored, and deletes it with its lines after 30 days, not before", async () => {
    const batches = useCases();
    const created = await batches.create(owner, parse(`${line(1)}\n${line(2)}`), false);
    expect(started).toEqual([created.id]);
    now = new Date(now.getTime() + 29 * DAY_MS);
    expect(await batches.purgeExpired()).toEqual({ batches: 0, lines: 0 });
    expect((await batches.get(created.id, owner.userId)).id).toBe(created.id);
    now = new Date(now.getTime() + 2 * DAY_MS);
    expect(await batches.purgeExpired()).toEqual({ batches: 1, lines: 2 });
    await expect(batches.get(created.id, owner.userId)).rejects.toThrow(BATCH_MESSAGES.notFound);
  });

  it("leaves no visible batch when it fails between its lines and its record (a crash), and purges the lines later", async () => {
    const failing = useCases({
      batches: {
        ...store.batches,
        create: async () => {
          throw new Error("the process died here");
        },
      },
    });
    await expect(failing.create(owner, parse(line(1)), false)).rejects.toThrow("the process died here");
    const batches = useCases();
    expect(await batches.list(owner.userId, { limit: 10, offset: 0 })).toMatchObject({ data: [], total: 0 });
    expect(started).toEqual([]);
    now = new Date(now.getTime() + 31 * DAY_MS);
    expect(await batches.purgeExpired()).toEqual({ batches: 0, lines: 1 });
  });

  it("refuses a batch with an invalid line unless skip_invalid, and then keeps the line as skipped", async () => {
    const batches = useCases();
    const parsed = parse(`${line(1)}\n{"custom_id":"bad","prompt":"","valid_responses":["A","B"]}`);
    await expect(batches.create(owner, parsed, false)).rejects.toThrow(BATCH_MESSAGES.invalidLines(1, 100));
    const created = await batches.create(owner, parsed, true);
    expect(created.skipped).toEqual({ count: 1, errors: [{ line: 2, custom_id: "bad", message: MESSAGES.questionRequired.detail }] });
    const results = [];
    for await (const result of await batches.results(created.id, owner.userId)) results.push([result.line, result.status]);
    expect(results).toEqual([
      [1, "pending"],
      [2, "skipped"],
    ]);
  });
});
