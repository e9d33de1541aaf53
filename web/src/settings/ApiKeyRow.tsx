import { MASKED_API_KEY, type ApiKey } from "@sd/contracts";
import { Copy, Eye, EyeOff, LoaderCircle, Trash2 } from "lucide-react";
import type { ReactNode } from "react";
import { cn } from "../ui/cn";
import { formatCost, formatKeyTime, keyMonthParts, keyTimeParts, spendLimitState } from "./format";
import { useKeySecret } from "./useKeySecret";
import { useSetApiKeyActive } from "./useSettingsQueries";

/** Status texts. */
export const statusText = (active: boolean) => (active ? "Active" : "Inactive");

/** An icon-only action, named for screen readers and in its tooltip; a spinner replaces the icon while busy. */
function IconButton({ label, onClick, busy, danger, children }: { label: string; onClick: () => void; busy?: boolean; danger?: boolean; children: ReactNode }) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      onClick={onClick}
      disabled={busy}
      aria-busy={busy || undefined}
      className={cn(
        "inline-flex size-7 items-center justify-center rounded-md text-slate-600 transition-colors hover:bg-slate-100 disabled:cursor-not-allowed disabled:opacity-50",
        danger && "hover:bg-red-50 hover:text-red-700",
      )}
    >
      {busy ? <LoaderCircle className="size-4 animate-spin" aria-hidden /> : children}
    </button>
  );
}

/** The Active / Inactive switch: one click sets active_status to the opposite value. */
function ActiveSwitch({ active, busy, onToggle }: { active: boolean; busy: boolean; onToggle: () => void }) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={active}
      aria-label="Active"
      title={active ? "Deactivate key" : "Activate key"}
      onClick={onToggle}
      disabled={busy}
      aria-busy={busy || undefined}
      className={cn(
        "relative inline-flex h-5 w-9 shrink-0 items-center rounded-full transition-colors disabled:cursor-wait disabled:opacity-60",
        active ? "bg-emerald-500" : "bg-slate-300",
      )}
    >
      <span className={cn("inline-block size-4 rounded-full bg-white shadow transition-transform", active ? "translate-x-4.5" : "translate-x-0.5")} aria-hidden />
    </button>
  );
}

/** A time as its date over its time of day; the full time in the tooltip. */
function KeyTime({ timestamp }: { timestamp: string | null }) {
  const { date, time } = keyTimeParts(timestamp);
  if (time === null) return <span className="whitespace-nowrap">{date}</span>;
  return (
    <time dateTime={timestamp ?? undefined} title={formatKeyTime(timestamp)} className="whitespace-nowrap">
      <span className="block">{date}</span>
      <span className="block text-xs text-slate-500">{time}</span>
    </time>
  );
}

/** An email that wraps after its @ first, rather than anywhere, when the column is narrow. */
function Email({ address }: { address: string }) {
  const at = address.indexOf("@");
  if (at <= 0) return <>{address}</>;
  return (
    <>
      {address.slice(0, at + 1)}
      <wbr />
      {address.slice(at + 1)}
    </>
  );
}

/**
 * COST: what the key has cost in all (the specification's figure), then this month's spend and
 * calls, and its monthly spend limit, which opens the limit dialog: "Set limit" while none is set,
 * marked once reached (the API then refuses new decisions with the key).
 */
function KeyCost({ apiKey, onSetLimit }: { apiKey: ApiKey; onSetLimit: () => void }) {
  const limit = apiKey.monthly_spend_limit_usd;
  const state = spendLimitState(apiKey);
  const [spend, calls] = keyMonthParts(apiKey);
  // Each figure stays whole; the cell wraps between them, so the table still fits beside the sidebar.
  return (
    <div className="space-y-0.5" data-testid="api-key-cost">
      <span className="block font-medium whitespace-nowrap text-slate-900">{formatCost(apiKey.cost)}</span>
      <span className="block text-xs text-slate-500">
        <span className="whitespace-nowrap">{spend.amount}</span> <span className="whitespace-nowrap">{spend.period}</span> <span className="whitespace-nowrap">· {calls}</span>
      </span>
      <button
        type="button"
        onClick={onSetLimit}
        aria-label={`Set monthly spend limit${limit === null ? "" : ` (now ${formatCost(limit)}${state === "reached" ? ", reached" : ""})`}`}
        className={cn(
          "block text-left text-xs underline decoration-dotted underline-offset-2 hover:decoration-solid",
          state === "reached" ? "font-semibold text-red-700" : "text-brand-700",
        )}
      >
        {limit === null ? (
          "Set limit"
        ) : (
          <>
            <span className="whitespace-nowrap">Limit {formatCost(limit)}</span> <span className="whitespace-nowrap">{state === "reached" ? "reached" : "a month"}</span>
          </>
        )}
      </button>
    </div>
  );
}

interface ApiKeyRowProps {
  userId: string;
  apiKey: ApiKey;
  onDelete: (key: ApiKey) => void;
  onSetLimit: (key: ApiKey) => void;
}

// Cells wrap (a date on two lines, a long email), so the table fits beside the sidebar on a laptop.
const cell = "px-2 py-3 align-middle text-slate-700";
const fixed = "whitespace-nowrap";

/** One key in the table: KEY, WORKSPACE, CREATED BY, CREATED AT, LAST USED AT, COST (with this month and the limit), STATUS and its actions. */
export function ApiKeyRow({ userId, apiKey, onDelete, onSetLimit }: ApiKeyRowProps) {
  const secret = useKeySecret(apiKey.id);
  // Each row has its own: two keys can be switched at the same time, each showing its own progress.
  const toggle = useSetApiKeyActive(userId);
  const shown = secret.shown !== null;
  return (
    <tr className="border-t border-slate-100">
      <th scope="row" className="px-2 py-3 text-left align-middle font-normal">
        <span className="block font-medium text-slate-900">{apiKey.name}</span>
        <code className="mt-1 block w-32 font-mono text-xs break-all text-slate-600" data-testid="api-key-value">
          {secret.shown ?? MASKED_API_KEY}
        </code>
      </th>
      <td className={cell}>{apiKey.workspace}</td>
      <td className={cn(cell, "min-w-30 wrap-anywhere")}>
        <Email address={apiKey.created_by} />
      </td>
      <td className={cell}>
        <KeyTime timestamp={apiKey.created_at} />
      </td>
      <td className={cell}>
        <KeyTime timestamp={apiKey.last_used_at} />
      </td>
      <td className={cn(cell, "tabular-nums")}>
        <KeyCost apiKey={apiKey} onSetLimit={() => onSetLimit(apiKey)} />
      </td>
      <td className={cn(cell, fixed)}>
        <span
          className={cn(
            "inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold",
            apiKey.active_status ? "bg-emerald-100 text-emerald-800" : "bg-slate-100 text-slate-600",
          )}
        >
          {statusText(apiKey.active_status)}
        </span>
      </td>
      {/* The actions stay in view while the other columns scroll sideways (phones, narrow windows). */}
      <td className={cn(cell, fixed, "sticky right-0 bg-white text-right shadow-[-8px_0_8px_-8px_rgb(15_23_42/0.15)]")}>
        <div className="flex items-center justify-end">
          {shown ? (
            <IconButton label="Hide key" onClick={secret.hide}>
              <EyeOff className="size-4" aria-hidden />
            </IconButton>
          ) : (
            <IconButton label="Show key" onClick={secret.show} busy={secret.revealing}>
              <Eye className="size-4" aria-hidden />
            </IconButton>
          )}
          <IconButton label="Copy key" onClick={secret.copy} busy={secret.copying}>
            <Copy className="size-4" aria-hidden />
          </IconButton>
          <span className="mx-0.5 inline-flex">
            <ActiveSwitch active={apiKey.active_status} busy={toggle.isPending} onToggle={() => toggle.mutate({ id: apiKey.id, active: !apiKey.active_status })} />
          </span>
          <IconButton label="Delete key" onClick={() => onDelete(apiKey)} danger>
            <Trash2 className="size-4" aria-hidden />
          </IconButton>
        </div>
      </td>
    </tr>
  );
}
