import { createHash } from "node:crypto";

/** Fields of an answer a script may pin; each applies to the first property of that name. */
export interface AnswerOverrides {
  category?: string | undefined;
  confidence?: number | undefined;
  rationale?: string | undefined;
}

export type Rng = () => number;

/** Deterministic RNG seeded by (model, prompt): the same question gets the same simulated answer. */
export function seededRng(model: string, promptText: string): Rng {
  const digest = createHash("sha256").update(`${model}\n${promptText}`).digest();
  let state = digest.readUInt32LE(0);
  // mulberry32: tiny, fast and good enough for picking answers.
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Plausible short answers for free-text `category` fields (suggestions have no enum). */
const CATEGORY_WORDS = [
  "Yes",
  "No",
  "Maybe",
  "Not yet",
  "Ask an expert",
  "Try it first",
  "Wait a week",
  "Compare options",
  "Go for it",
  "Skip it",
];

/** Free-text answers (no output schema) say plainly that no real model answered. */
export const SIMULATED_RATIONALE = "Simulated answer from the provider emulator; no real model was consulted.";

/**
 * A simulated vote's reason: one sentence naming the chosen category, put together from a lead
 * and a clause. Both are drawn from the answer's own RNG (seeded by model and prompt), so it is
 * deterministic, and three simulated models answering one question rarely share a sentence
 * (48 combinations) and never when their categories differ.
 */
const LEADS: readonly ((category: string) => string)[] = [
  (c) => `${c} fits best`,
  (c) => `${c} is the sounder pick`,
  (c) => `${c} comes out ahead`,
  (c) => `I lean towards ${c}`,
  (c) => `${c} is the better call`,
  (c) => `${c} edges it`,
  (c) => `${c} makes the most sense`,
  (c) => `${c} looks right`,
];
const CLAUSES = [
  "given how the question is framed.",
  "on the information available.",
  "once the trade-offs are weighed.",
  "since it carries the least risk.",
  "as it answers the question most directly.",
  "because the alternatives have clearer downsides.",
];

export function simulatedRationale(category: string, rng: Rng): string {
  return `${pick(LEADS, rng)(category)} ${pick(CLAUSES, rng)}`;
}

type Schema = Record<string, unknown>;

const isSchema = (value: unknown): value is Schema => typeof value === "object" && value !== null && !Array.isArray(value);

/** JSON Schema and Gemini's OpenAPI subset spell types differently ("string" vs "STRING", type arrays). */
function schemaType(schema: Schema): string | null {
  const raw = schema["type"];
  const types = (Array.isArray(raw) ? raw : [raw]).filter((t): t is string => typeof t === "string").map((t) => t.toLowerCase());
  const concrete = types.find((t) => t !== "null");
  if (concrete) return concrete;
  if (isSchema(schema["properties"])) return "object";
  if (isSchema(schema["items"])) return "array";
  return types[0] ?? null;
}

const pick = <T>(items: readonly T[], rng: Rng): T => items[Math.floor(rng() * items.length)]!;
const round2 = (n: number): number => Math.round(n * 100) / 100;
const num = (value: unknown): number | null => (typeof value === "number" && Number.isFinite(value) ? value : null);

/**
 * Produces a value conforming to `schema`: enums pick a member, objects fill every property,
 * arrays get 1-3 items (within minItems/maxItems). Overrides replace the first field of their name.
 * An object with a `category` and a generated `rationale` gets a reason naming that category.
 */
export function generateFromSchema(schema: unknown, rng: Rng, overrides: AnswerOverrides = {}): unknown {
  const pending = new Map<string, unknown>(Object.entries(overrides).filter(([, v]) => v !== undefined));
  return walk(schema, rng, pending, null);
}

function walk(schema: unknown, rng: Rng, pending: Map<string, unknown>, field: string | null): unknown {
  if (!isSchema(schema)) return null;
  if (field !== null && pending.has(field)) {
    const value = pending.get(field);
    pending.delete(field);
    return value;
  }
  const variants = schema["anyOf"] ?? schema["oneOf"];
  if (Array.isArray(variants) && variants.length > 0) {
    const concrete = variants.find((v) => isSchema(v) && schemaType(v) !== "null") ?? variants[0];
    return walk(concrete, rng, pending, field);
  }
  const enumValues = schema["enum"];
  if (Array.isArray(enumValues) && enumValues.length > 0) return pick(enumValues, rng);
  if ("const" in schema) return schema["const"];

  switch (schemaType(schema)) {
    case "object": {
      const properties = isSchema(schema["properties"]) ? schema["properties"] : {};
      const out: Record<string, unknown> = {};
      const pinnedRationale = pending.has("rationale");
      for (const [name, sub] of Object.entries(properties)) out[name] = walk(sub, rng, pending, name);
      if ("rationale" in properties && !pinnedRationale && typeof out["category"] === "string" && typeof out["rationale"] === "string") {
        out["rationale"] = simulatedRationale(out["category"].trim() || "This answer", rng);
      }
      return out;
    }
    case "array": {
      const min = Math.max(num(schema["minItems"]) ?? 1, 0);
      const max = Math.max(num(schema["maxItems"]) ?? Math.max(3, min), min);
      const upper = Math.min(max, Math.max(3, min));
      const count = min + Math.floor(rng() * (upper - min + 1));
      return Array.from({ length: count }, () => walk(schema["items"], rng, pending, null));
    }
    case "number":
    case "integer": {
      if (field === "confidence") return round2(0.55 + rng() * 0.4);
      const integer = schemaType(schema) === "integer";
      const low = num(schema["minimum"]) ?? 0;
      const high = num(schema["maximum"]) ?? (integer ? 10 : 1);
      const value = low + rng() * (high - low);
      return integer ? Math.round(value) : round2(value);
    }
    case "boolean":
      return rng() < 0.5;
    case "string":
      if (field === "category") return pick(CATEGORY_WORDS, rng);
      if (field === "rationale") return SIMULATED_RATIONALE;
      return "Simulated text";
    default:
      return null;
  }
}
