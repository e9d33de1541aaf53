import type { ReactNode } from "react";

/** A page's title with a "Live" badge while its live updates are connected, a line under it, and its actions at the right. */
export function LiveHeading({ title, description, live, liveTitle, children }: { title: string; description: ReactNode; live: boolean; liveTitle: string; children?: ReactNode }) {
  return (
    <div className="mb-6 flex flex-wrap items-start justify-between gap-4">
      <div className="min-w-0 space-y-1">
        <h1 className="flex flex-wrap items-center gap-3 text-3xl font-bold">
          {title}
          {live ? (
            <span className="inline-flex items-center gap-1.5 rounded-full bg-emerald-50 px-2.5 py-0.5 text-xs font-medium text-emerald-700" title={liveTitle}>
              <span className="size-2 rounded-full bg-emerald-500" aria-hidden />
              Live
            </span>
          ) : null}
        </h1>
        <p className="text-slate-600">{description}</p>
      </div>
      {children}
    </div>
  );
}
