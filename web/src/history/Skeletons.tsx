import { cn } from "../ui/cn";

function Bone({ className }: { className?: string }) {
  return <div className={cn("animate-pulse rounded-md bg-slate-200", className)} />;
}

function CardSkeleton() {
  return (
    <div className="space-y-3 rounded-xl border border-slate-200 bg-white p-6">
      <div className="flex items-start justify-between gap-4">
        <Bone className="h-5 w-2/3" />
        <Bone className="h-6 w-20 rounded-full" />
      </div>
      <Bone className="h-4 w-40" />
      <div className="grid gap-3 md:grid-cols-3">
        <Bone className="h-16" />
        <Bone className="h-16" />
        <Bone className="h-16" />
      </div>
    </div>
  );
}

/** The dashboard while the session or the first page loads. */
export function DashboardSkeleton() {
  return (
    <div role="status" aria-label="Loading decision history" className="space-y-4">
      <CardSkeleton />
      <CardSkeleton />
      <CardSkeleton />
    </div>
  );
}

/** The decision page while the decision loads. */
export function DecisionSkeleton() {
  return (
    <div role="status" aria-label="Loading decision" className="space-y-6">
      <div className="space-y-3 rounded-xl border border-slate-200 bg-white p-6">
        <Bone className="h-7 w-3/4" />
        <Bone className="h-4 w-56" />
        <Bone className="h-6 w-24 rounded-full" />
      </div>
      <div className="grid gap-6 lg:grid-cols-2">
        <Bone className="h-40" />
        <Bone className="h-40" />
        <Bone className="h-40" />
        <Bone className="h-40" />
      </div>
    </div>
  );
}

/** A square where an image is still loading. */
export function ImagePlaceholder({ className }: { className?: string }) {
  return <Bone className={cn("aspect-square w-full", className)} />;
}
