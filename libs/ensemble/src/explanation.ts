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
export function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= MAX_REASON_CHARS ? flat : `${flat.slice(0, MAX_REASON_CHARS - 1).trimEnd()}…`;
}

export const votes = (n: number) => `${n} ${n === 1 ? "vote" : "votes"}`;

/** " It tied with X and won on …." for a tally whose winner came out of a tie, else "". */
export function tieSentence(tally: Tally): string {
  const others = tally.leaders.filter((c) => c !== tally.final_decision);
  if (others.length === 0) return "";
  const how = tally.tie_break === "confidence" ? "on the models' combined confidence" : "as the category listed first";
  return ` It tied with ${others.join(", ")} and won ${how}.`;
}

/** The outcome of a plain count, and how a tie was broken (the tie-break of `majorityVote`). */
export function outcomeLine(tally: Tally): string {
  const winner = tally.final_decision;
  if (winner === null) return "";
  return `${winner} won with ${tally.vote_counts[winner] ?? 0} of ${votes(tally.total_votes)}.${tieSentence(tally)}`;
}

/** "<label>: <category> — <its reason>", or "<label>: no valid vote (<error>)". */
export function rationaleLine(r: Rationale): string {
  if (r.category === null) return `${r.label}: no valid vote${r.error?.trim() ? ` (${oneLine(r.error)})` : ""}`;
  return r.rationale?.trim() ? `${r.label}: ${r.category} — ${oneLine(r.rationale)}` : `${r.label}: ${r.category}`;
}

/**
 * "Why this decision?": one short line per fact, joined with "\n" — first the outcome, then one
 * line per model ("<label>: <category> — <its reason>" or "<label>: no valid vote (<error>)").
 * Each model's reason appears once, in its own line, so nothing is repeated.
 */
export function explainDecision(tally: Tally, rationales: readonly Rationale[], noDecisionText: string): string {
  if (tally.final_decision === null) return noDecisionText;
  return [outcomeLine(tally), ...rationales.map(rationaleLine)].join("\n");
}
