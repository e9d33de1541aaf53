import type { ReactNode } from "react";
import { cn } from "../ui/cn";
import { healthTone, type HealthTone } from "./format";

/** A titled panel of the dashboard; a region named by its title, so it is found by name. */
export function Panel({ title, children, className, action }: { title: string; children: ReactNode; className?: string; action?: ReactNode }) {
  return (
    <section aria-label={title} className={cn("min-w-0 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5", className)}>
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h3 className="font-semibold text-slate-900">{title}</h3>
        {action}
      </div>
      {children}
    </section>
  );
}

/** One of the overview's four cards: a figure and what it means. */
export function StatCard({ title, value, detail }: { title: string; value: string | null; detail: string | null }) {
  return (
    <section aria-label={title} className="min-w-0 rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
      <h3 className="text-sm font-medium text-slate-600">{title}</h3>
      <p className="mt-1 text-2xl font-bold text-slate-900" data-testid="stat-value">
        {value ?? "—"}
      </p>
      {detail ? <p className="mt-1 text-sm text-slate-600">{detail}</p> : null}
    </section>
  );
}

/** A labelled horizontal bar with its figure (share 0 to 1). */
export function Bar({ label, figure, share, tone = "bg-brand-600" }: { label: string; figure: string; share: number; tone?: string }) {
  return (
    <li className="min-w-0">
      <div className="flex items-baseline justify-between gap-3 text-sm">
        <span className="min-w-0 break-words text-slate-800">{label}</span>
        <span className="shrink-0 font-medium text-slate-900">{figure}</span>
      </div>
      <div className="mt-1 h-2 rounded-full bg-slate-100" aria-hidden>
        <div className={cn("h-2 rounded-full", tone)} style={{ width: `${Math.round(Math.min(1, Math.max(0, share)) * 100)}%` }} />
      </div>
    </li>
  );
}

const TONES: Record<HealthTone, string> = {
  green: "border-emerald-300 bg-emerald-50 text-emerald-800",
  yellow: "border-yellow-300 bg-yellow-50 text-yellow-800",
  red: "border-red-300 bg-red-50 text-red-800",
  gray: "border-slate-300 bg-slate-100 text-slate-700",
};

/** A health status badge: healthy green, warning yellow, critical red. */
export function StatusBadge({ status, label }: { status: string; label?: string }) {
  const tone = healthTone(status);
  return (
    <span data-testid="status-badge" data-tone={tone} className={cn("inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-semibold uppercase", TONES[tone])}>
      {label ?? status}
    </span>
  );
}

/** What an empty or failed panel shows: nothing to count (failures are only logged). */
export const NoData = ({ children = "No data" }: { children?: ReactNode }) => <p className="text-sm text-slate-500">{children}</p>;

export const PanelSkeleton = ({ className }: { className?: string }) => <div aria-hidden className={cn("h-24 animate-pulse rounded-xl bg-slate-100", className)} />;
