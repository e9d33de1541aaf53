import { voteResults, type VoteResult } from "../lib/vote-results";
import type { DecisionHistoryItem } from "@sd/contracts";

/**
 * How the history pages show numbers, times and models, as pure
 * functions so every rule and fallback is unit-tested.
 */

/** Shown for a timestamp that is not a valid date. */
export const UNKNOWN_TIME = "Unknown time";
/** Shown when a decision has no processing time. */
export const UNKNOWN_PROCESSING_TIME = "Unknown";
/** The final-decision badge of a decision without one. */
export const NO_DECISION = "No decision";
/** A model's response that is null or empty. */
export const NO_RESPONSE = "No response";

function parseTime(timestamp: string | null | undefined): number | null {
  if (!timestamp) return null;
  const ms = Date.parse(timestamp);
  return Number.isNaN(ms) ? null : ms;
}

/** Processing time: in ms under 1000, else in seconds with 2 decimals; 'Unknown' when missing. */
export function formatProcessingTime(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return UNKNOWN_PROCESSING_TIME;
  return ms < 1000 ? `${Math.round(ms)}ms` : `${(ms / 1000).toFixed(2)}s`;
}

/** 'Just now' under a minute, then 'Nm ago', 'Nh ago', 'Nd ago'; 'Unknown time' when invalid. */
export function formatRelativeTime(timestamp: string | null | undefined, nowMs: number): string {
  const at = parseTime(timestamp);
  if (at === null) return UNKNOWN_TIME;
  // A clock slightly ahead of ours still reads as 'Just now', never as a negative age.
  const seconds = Math.max(0, (nowMs - at) / 1000);
  if (seconds < 60) return "Just now";
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h ago`;
  return `${Math.floor(hours / 24)}d ago`;
}

/** The decision's time in the viewer's own time zone and locale; 'Unknown time' when invalid. */
export function formatLocalTime(timestamp: string | null | undefined, locale?: string, timeZone?: string): string {
  const at = parseTime(timestamp);
  if (at === null) return UNKNOWN_TIME;
  return new Date(at).toLocaleString(locale, { dateStyle: "medium", timeStyle: "short", timeZone });
}

export type ConfidenceTone = "high" | "medium" | "low";

/** Confidence badge: a rounded percentage, green at 0.8 or above, yellow at 0.6 or above, red below. */
export function confidenceBadge(score: number | null | undefined): { text: string; tone: ConfidenceTone } | null {
  if (score === null || score === undefined || !Number.isFinite(score)) return null;
  const tone: ConfidenceTone = score >= 0.8 ? "high" : score >= 0.6 ? "medium" : "low";
  return { text: `${Math.round(score * 100)}%`, tone };
}

/** A provider id as a name, split on capital letters ("deepSeek" -> "deep Seek"), when its label is unknown. */
export function splitOnCapitals(id: string): string {
  return id.split(/(?=[A-Z])/).join(" ");
}

/** The model's display name: the provider's label from GET /api/providers when known, else its id split on capitals. */
export function modelName(id: string, labels: ReadonlyMap<string, string>): string {
  return labels.get(id) ?? splitOnCapitals(id);
}

/** The text of a model's response: 'No response' when null or empty. */
export function responseText(response: string | null | undefined): string {
  return response && response.trim() !== "" ? response : NO_RESPONSE;
}

/**
 * Vote results, most votes first (ties keep the order the categories were offered). Categories the
 * decision offered but no one voted for are listed with 0, so every option shows.
 */
export function voteRows(decision: Pick<DecisionHistoryItem, "vote_counts" | "total_votes" | "categories">): VoteResult[] {
  // fromEntries defines own properties (a "__proto__" category stays data); a later count replaces the 0 in place.
  const counts = Object.fromEntries([...decision.categories.map((category) => [category, 0] as const), ...Object.entries(decision.vote_counts)]);
  return voteResults(counts, decision.total_votes);
}

/** The models of a decision, in the order the server listed their responses, then any others mentioned. */
export function decisionModels(decision: Pick<DecisionHistoryItem, "individual_responses" | "model_versions" | "error_details" | "confidence_scores" | "raw_responses">): string[] {
  const ids = new Set<string>();
  for (const record of [decision.individual_responses, decision.model_versions, decision.confidence_scores, decision.raw_responses, decision.error_details]) {
    for (const id of Object.keys(record)) ids.add(id);
  }
  return [...ids];
}

/** Raw Response is shown only when it says something the response does not. */
export function distinctRawResponse(response: string | null | undefined, raw: string | null | undefined): string | null {
  if (raw === null || raw === undefined || raw.trim() === "") return null;
  return raw === (response ?? "") ? null : raw;
}

/** The Category filter's options: every category offered and every final decision among the loaded decisions. */
export function categoryOptions(decisions: readonly Pick<DecisionHistoryItem, "categories" | "final_decision">[], selected?: string): string[] {
  const seen = new Set<string>();
  for (const decision of decisions) {
    for (const category of decision.categories) seen.add(category);
    if (decision.final_decision) seen.add(decision.final_decision);
  }
  // The chosen category stays offered even when the page now loaded holds none of it.
  if (selected) seen.add(selected);
  return [...seen].sort((a, b) => a.localeCompare(b));
}

/** An image's size in KB, one decimal. */
export function formatKb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

const EXTENSIONS: Readonly<Record<string, string>> = { "image/jpeg": "jpg", "image/svg+xml": "svg", "image/x-icon": "ico" };

/** A downloaded image's file name: its label and the extension of its type ("image1.png"). */
export function downloadFileName(label: string, imageType: string): string {
  const type = imageType.toLowerCase();
  const extension = EXTENSIONS[type] ?? (/^image\/([a-z0-9.+-]+)$/.exec(type)?.[1] ?? "jpg");
  const base = label.replace(/[^A-Za-z0-9._-]/g, "_") || "image";
  return `${base}.${extension}`;
}

/**
 * An image's name on the decision page. Requests carry images as bare data URLs, without their file
 * names, so the stored labels are image1, image2, ...: those read "Image 1", "Image 2"; any other
 * label is shown as stored. `position` names an image whose label is empty.
 */
export function imageTitle(label: string, position: number): string {
  const numbered = /^image(\d+)$/i.exec(label.trim());
  if (numbered) return `Image ${Number(numbered[1])}`;
  return label.trim() || `Image ${position + 1}`;
}

/** The viewer's step to the previous (-1) or next (+1) image, staying within the images; null when there is none that way. */
export function stepImage(index: number, count: number, step: -1 | 1): number | null {
  const next = index + step;
  return next >= 0 && next < count ? next : null;
}

/** A model version the product labels as simulated (no vendor was called, so nothing was spent). */
export const isSimulatedVersion = (version: string | undefined): boolean => version?.trim().endsWith("(simulated)") ?? false;

export interface ModelUsage {
  id: string;
  tokens: { input: number; output: number } | null;
  latencyMs: number | null;
  costUsd: number;
  simulated: boolean;
}

/**
 * Per model of the decision, in its usual order: tokens in and out, the time its calls took and
 * what they cost. Decisions stored before latencies and per-model costs were kept have none.
 */
export function modelUsage(
  decision: Pick<DecisionHistoryItem, "individual_responses" | "model_versions" | "error_details" | "confidence_scores" | "raw_responses" | "token_usage" | "model_latencies_ms" | "model_costs_usd">,
): ModelUsage[] {
  return decisionModels(decision).map((id) => {
    const usage = decision.token_usage[id] ?? null;
    return {
      id,
      tokens: usage ? { input: usage.input_tokens, output: usage.output_tokens } : null,
      latencyMs: decision.model_latencies_ms[id] ?? null,
      costUsd: decision.model_costs_usd[id] ?? 0,
      simulated: isSimulatedVersion(decision.model_versions[id]),
    };
  });
}
