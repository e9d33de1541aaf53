/**
 * Reads what the product's prompts say (libs/providers/src/prompt.ts writes them): whether a call
 * is a first-round vote, a gossip round or a judge's, the answers it shows, and the lab marker of
 * a labelled question. The markers are the lines the providers library documents as stable.
 */

export type PromptKind = "vote" | "gossip" | "judge";

/** One answer a prompt shows: a peer's (gossip) or a panel model's (judge); category null when its call failed. */
export interface StatedAnswer {
  label: string;
  category: string | null;
  confidence: number | null;
}

export interface ReadPrompt {
  kind: PromptKind;
  /** The id in the question's `[lab:<id>]` marker, or null. */
  labId: string | null;
  /** Gossip: the round the prompt states, or null. */
  round: number | null;
  /** Gossip: this model's previous answer, or null (none, or its call failed). */
  previous: string | null;
  /** Gossip: the peers' answers; judge: the panel's answers. */
  answers: StatedAnswer[];
}

/** `[lab:<id>]` anywhere in the question: ids are letters, digits, `_`, `-` and `.`, at most 100. */
export const LAB_MARKER = /\[lab:([A-Za-z0-9_.-]{1,100})\]/;
export const LAB_ID = /^[A-Za-z0-9_.-]{1,100}$/;

const MARKERS = {
  round: "Round:",
  previous: "Your previous answer:",
  peers: "Other models' answers:",
  panel: "Panel answers:",
} as const;

const JSON_STRING = String.raw`"(?:[^"\\]|\\.)*"`;
const ANSWER_LINE = new RegExp(String.raw`^- (.+?) answered (${JSON_STRING})(?: with confidence (-?\d+(?:\.\d+)?(?:e-?\d+)?))?(?:\. Reason: ${JSON_STRING}|\.)$`);
const FAILED_LINE = /^- (.+?) answered nothing\b/;
const PREVIOUS_LINE = new RegExp(String.raw`^${MARKERS.previous} (${JSON_STRING})(?:\. Reason: ${JSON_STRING}|\.)$`);

export function readPrompt(text: string): ReadPrompt {
  const lines = text.split("\n");
  const labId = LAB_MARKER.exec(text)?.[1] ?? null;
  const panelAt = lines.indexOf(MARKERS.panel);
  if (panelAt >= 0) return { kind: "judge", labId, round: null, previous: null, answers: answersAfter(lines, panelAt) };
  const peersAt = lines.indexOf(MARKERS.peers);
  const previousLine = lines.find((line) => line.startsWith(`${MARKERS.previous} `));
  if (peersAt < 0 && previousLine === undefined) return { kind: "vote", labId, round: null, previous: null, answers: [] };
  const roundLine = lines.find((line) => line.startsWith(`${MARKERS.round} `));
  const round = roundLine === undefined ? null : Number.parseInt(roundLine.slice(MARKERS.round.length + 1), 10);
  const previous = previousLine === undefined ? null : PREVIOUS_LINE.exec(previousLine)?.[1];
  return {
    kind: "gossip",
    labId,
    round: round !== null && Number.isInteger(round) ? round : null,
    previous: previous ? jsonString(previous) : null,
    answers: peersAt < 0 ? [] : answersAfter(lines, peersAt),
  };
}

/** The answer lines after a section's marker, up to its first blank line. */
function answersAfter(lines: readonly string[], markerAt: number): StatedAnswer[] {
  const out: StatedAnswer[] = [];
  for (const line of lines.slice(markerAt + 1)) {
    if (line.trim() === "") break;
    const answered = ANSWER_LINE.exec(line);
    if (answered) {
      const confidence = answered[3] === undefined ? null : Number(answered[3]);
      out.push({ label: answered[1]!, category: jsonString(answered[2]!), confidence: Number.isFinite(confidence) ? confidence : null });
      continue;
    }
    const failed = FAILED_LINE.exec(line);
    if (failed) out.push({ label: failed[1]!, category: null, confidence: null });
  }
  return out;
}

function jsonString(quoted: string): string | null {
  try {
    const value: unknown = JSON.parse(quoted);
    return typeof value === "string" ? value : null;
  } catch {
    return null;
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** The allowed categories of a vote-shaped answer schema (`properties.category.enum`), or null for any other schema. */
export function schemaCategories(schema: unknown): string[] | null {
  if (!isRecord(schema) || !isRecord(schema["properties"])) return null;
  const category = schema["properties"]["category"];
  if (!isRecord(category) || !Array.isArray(category["enum"])) return null;
  const values = category["enum"].filter((v): v is string => typeof v === "string");
  return values.length > 0 ? values : null;
}
