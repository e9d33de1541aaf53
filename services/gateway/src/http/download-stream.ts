import { once } from "node:events";
import type { Response } from "express";

/** Waits until the client has taken what was written, or has gone; the listener that did not fire is removed (no pile-up over a long download). */
async function drainedOrClosed(res: Response): Promise<void> {
  const done = new AbortController();
  try {
    await Promise.race([once(res, "drain", { signal: done.signal }), once(res, "close", { signal: done.signal })]);
  } finally {
    done.abort();
  }
}

/**
 * Writes the chunks as the client takes them, so a slow download never piles up in memory. The
 * headers go out with the first chunk: a failure before it is an ordinary error answer; one after
 * it cuts the connection, so a truncated file never looks complete.
 */
export async function sendChunks(res: Response, chunks: AsyncIterable<string>, headers: Record<string, string>): Promise<void> {
  const iterator = chunks[Symbol.asyncIterator]();
  let next = await iterator.next();
  res.status(200).set({ "Cache-Control": "no-store", ...headers });
  try {
    while (!next.done) {
      if (res.destroyed) return void (await iterator.return?.());
      if (!res.write(next.value)) await drainedOrClosed(res);
      next = await iterator.next();
    }
    res.end();
  } catch (error) {
    res.destroy(error as Error);
  }
}

/** Lines of JSON, written about 64 KB at a time (one write per line would cost a syscall each). */
async function* jsonlChunks<T>(lines: AsyncIterable<T>): AsyncGenerator<string> {
  let chunk = "";
  for await (const line of lines) {
    chunk += `${JSON.stringify(line)}\n`;
    if (chunk.length >= 64 * 1024) {
      yield chunk;
      chunk = "";
    }
  }
  if (chunk !== "") yield chunk;
}

/** `lines` as a JSONL answer, streamed as sendChunks does. */
export function sendJsonl<T>(res: Response, lines: AsyncIterable<T>, headers: Record<string, string> = {}): Promise<void> {
  return sendChunks(res, jsonlChunks(lines), { "Content-Type": "application/jsonl; charset=utf-8", ...headers });
}
