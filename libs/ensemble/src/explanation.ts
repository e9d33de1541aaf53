import type { Tally } from "./majority-vote";

export interface Rationale {
  label: string;
  category: string | null;
  rationale: string | null;
  error: string | null;
}

/** Longest reason or error a line shows; a model that rambles must not drown the other lines. */
const MAX_REASON_CHARS = 240;

/** One line of text: whitespace (newlines included) collapsed, cut at `MAX_REASON_CHARS`. */
function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= MAX_REASON_CHARS ? flat : `${flat.slice(0, MAX_REASON_CHARS - 1).trimEnd()}…`;
}

const votes = (n: number) => `${n} ${n === 1 ? "vote" : "votes"}`;

/** The outcome, and how a tie was broken (the tie-break of `majorityVote`). */
function outcome(tally: Tally, winner: string): string {
  const line = `${winner} won with ${tally.vote_counts[winner] ?? 0} of ${votes(tally.total_votes)}.`;
  const others = tally.leaders.filter((c) => c !== winner);
  if (others.length === 0) return line;
  const byConfidence = others.every((c) => (tally.confidence[c] ?? 0) < (tally.confidence[winner] ?? 0));
  return `${line} It tied with ${others.join(", ")} and won ${byConfidence ? "on the models' combined confidence" : "as the category listed first"}.`;
}

/**
 * "Why this decision?": one short line per fact, joined with "\n" — first the outcome, then one
 * line per model ("<label>: <category> — <its reason>" or "<label>: no valid vote (<error>)").
 * Each model's reason appears once, in its own line, so nothing is repeated.
 */
export function explainDecision(tally: Tally, rationales: readonly Rationale[], noDecisionText: string): string {
  if (tally.final_decision === null) return noDecisionText;
  const lines = rationales.map((r) => {
    if (r.category === null) return `${r.label}: no valid vote${r.error?.trim() ? ` (${oneLine(r.error)})` : ""}`;
    return r.rationale?.trim() ? `${r.label}: ${r.category} — ${oneLine(r.rationale)}` : `${r.label}: ${r.category}`;
  });
  return [outcome(tally, tally.final_decision), ...lines].join("\n");
}
