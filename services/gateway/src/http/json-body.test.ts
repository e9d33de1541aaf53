import { describe, expect, it } from "vitest";
import { BODY_MESSAGES, MAX_JSON_DEPTH, MAX_JSON_VALUES } from "@sd/contracts";
import { JsonShapeScanner } from "./json-body";

/** Feeds `text` to a scanner in chunks of `size` bytes; the refusal's detail, or null. */
function refusalOf(text: string, size = text.length): string | null {
  const bytes = Buffer.from(text);
  const scanner = new JsonShapeScanner();
  try {
    for (let at = 0; at < bytes.length; at += size) scanner.scan(bytes.subarray(at, at + size));
    return null;
  } catch (error) {
    return (error as { detail: string }).detail;
  }
}

const CHUNK_SIZES = [1, 2, 3, 7, 64, 1 << 20];

describe("the JSON shape check", () => {
  it.each(CHUNK_SIZES)("counts nothing inside strings, escaped quotes and backslashes included (chunks of %i bytes)", (size) => {
    const question = `${",[{".repeat(MAX_JSON_VALUES)} \\"quoted, [still text]\\" \\\\`;
    const body = JSON.stringify({ question, categories: ["a,b", "[c]", 'say "{"'], images: [] });
    expect(JSON.parse(body)).toMatchObject({ question });
    expect(refusalOf(body, size)).toBeNull();
  });

  it.each(CHUNK_SIZES)("refuses nesting past the limit and values past the limit (chunks of %i bytes)", (size) => {
    expect(refusalOf("[".repeat(MAX_JSON_DEPTH) + "]".repeat(MAX_JSON_DEPTH), size)).toBeNull();
    expect(refusalOf("[".repeat(MAX_JSON_DEPTH + 1), size)).toBe(BODY_MESSAGES.tooDeep);
    expect(refusalOf(`[${"1,".repeat(MAX_JSON_VALUES - 2)}1]`, size)).toBeNull();
    expect(refusalOf(`[${"1,".repeat(MAX_JSON_VALUES + 1)}1]`, size)).toBe(BODY_MESSAGES.tooManyValues);
  });
});
