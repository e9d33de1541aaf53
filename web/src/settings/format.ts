import { ApiKeyCreateSchema, ApiKeySpendLimitSchema, formatUsd, type ApiKey, type ApiKeyCreate, type AuthUser } from "@sd/contracts";
import { displayName } from "../auth/session";
import { formatLocalTime, UNKNOWN_TIME } from "../history/format";

/**
 * How the settings page words and formats its figures, as pure
 * functions so each rule is unit-tested.
 */

const MB = 1024 ** 2;
const GB = 1024 ** 3;

/** The sidebar's organization label: every account is its own organization until teams exist. */
export function organizationLabel(user: Pick<AuthUser, "name" | "email">): string {
  return `${displayName(user)}'s Organization`;
}

/** A whole number with thousands separators ("1,000"), the same in every browser locale. */
export const formatCount = (n: number): string => Math.round(n).toLocaleString("en-US");

/** API Requests this month: "N / 1,000". */
export const formatRequests = (used: number, limit: number): string => `${formatCount(used)} / ${formatCount(limit)}`;

/** Megabytes with up to 2 decimals; a little storage never reads as nothing ("<0.01 MB"). */
export function formatMegabytes(bytes: number): string {
  if (bytes <= 0) return "0 MB";
  const mb = bytes / MB;
  if (mb < 0.01) return "<0.01 MB";
  return `${mb.toLocaleString("en-US", { maximumFractionDigits: 2 })} MB`;
}

/** A storage allowance in whole gigabytes when it is one ("1 GB"), else in megabytes. */
export function formatAllowance(bytes: number): string {
  return bytes >= GB && bytes % GB === 0 ? `${formatCount(bytes / GB)} GB` : formatMegabytes(bytes);
}

/** Storage used: "X MB / 1 GB". */
export const formatStorage = (used: number, limit: number): string => `${formatMegabytes(used)} / ${formatAllowance(limit)}`;

/** How full a bar is, 0 to 1 (a figure past its limit fills the bar, never more). */
export function usageShare(used: number, limit: number): number {
  if (!(limit > 0) || !(used > 0)) return 0;
  return Math.min(1, used / limit);
}

/** A key's cost, spend or limit in US dollars, written as the server's texts write them. */
export const formatCost = formatUsd;

type KeyMonth = Pick<ApiKey, "spend_this_month_usd" | "requests_this_month">;

/** A key's month so far in parts the table may wrap between: {amount: "$0.0131", period: "this month"} and "12 calls". */
export function keyMonthParts(key: KeyMonth): [spend: { amount: string; period: string }, calls: string] {
  return [
    { amount: formatCost(key.spend_this_month_usd), period: "this month" },
    `${formatCount(key.requests_this_month)} ${key.requests_this_month === 1 ? "call" : "calls"}`,
  ];
}

/** A key's month so far on one line: "$0.0131 this month · 12 calls". */
export function formatKeyMonth(key: KeyMonth): string {
  const [spend, calls] = keyMonthParts(key);
  return `${spend.amount} ${spend.period} · ${calls}`;
}

/**
 * Where a key stands against its monthly spend limit: none set, within it, or reached (the API
 * then refuses new decisions with it, as the server checks: spend at or over the limit).
 */
export function spendLimitState(key: Pick<ApiKey, "spend_this_month_usd" | "monthly_spend_limit_usd">): "none" | "within" | "reached" {
  if (key.monthly_spend_limit_usd === null) return "none";
  return key.spend_this_month_usd >= key.monthly_spend_limit_usd ? "reached" : "within";
}

export type SpendLimitCheck = { ok: true; limitUsd: number } | { ok: false; error: string };

/** The spend limit field as the server will read it ("$5", "5.00" and "1,000" are all dollars), checked with its own schema. */
export function checkSpendLimit(text: string): SpendLimitCheck {
  const cleaned = text.trim().replace(/^\$/, "").replaceAll(",", "").trim();
  const parsed = ApiKeySpendLimitSchema.safeParse({ monthly_spend_limit_usd: cleaned === "" || !/^\d*\.?\d*$/.test(cleaned) ? Number.NaN : Number(cleaned) });
  if (parsed.success && parsed.data.monthly_spend_limit_usd !== null) return { ok: true, limitUsd: parsed.data.monthly_spend_limit_usd };
  return { ok: false, error: parsed.success ? "Enter an amount." : (parsed.error.issues[0]?.message ?? "Enter an amount.") };
}

/** LAST USED AT of a key never used. */
export const NEVER_USED = "Never";

/**
 * CREATED AT / LAST USED AT in the viewer's time zone, as a date and a time of day (the table shows
 * them on two lines, so the column stays narrow); 'Never' for a key not used yet, 'Unknown time'
 * for a timestamp that is not one.
 */
export function keyTimeParts(timestamp: string | null, locale?: string, timeZone?: string): { date: string; time: string | null } {
  if (timestamp === null) return { date: NEVER_USED, time: null };
  const at = Date.parse(timestamp);
  if (Number.isNaN(at)) return { date: UNKNOWN_TIME, time: null };
  return {
    date: new Date(at).toLocaleDateString(locale, { dateStyle: "medium", timeZone }),
    time: new Date(at).toLocaleTimeString(locale, { timeStyle: "short", timeZone }),
  };
}

/** The same on one line (the cell's tooltip). */
export function formatKeyTime(timestamp: string | null, locale?: string, timeZone?: string): string {
  return timestamp === null ? NEVER_USED : formatLocalTime(timestamp, locale, timeZone);
}

export type NewKeyCheck = { ok: true; body: ApiKeyCreate } | { ok: false; field: "name" | "workspace"; error: string };

/**
 * The Create Key form as the server will read it: the name trimmed and
 * required, the workspace 'Default' when left empty; checked with the server's own schema.
 */
export function checkNewKey(name: string, workspace: string): NewKeyCheck {
  const parsed = ApiKeyCreateSchema.safeParse({ name, workspace });
  if (parsed.success) return { ok: true, body: parsed.data };
  const issue = parsed.error.issues[0];
  return { ok: false, field: issue?.path[0] === "workspace" ? "workspace" : "name", error: issue?.message ?? "Check the key name and workspace." };
}
