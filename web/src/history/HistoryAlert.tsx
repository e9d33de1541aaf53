import { CircleAlert } from "lucide-react";
import type { ReactNode } from "react";
import { cn } from "../ui/cn";

/** An alert of the history pages: why they cannot show anything, and what to do about it. */
export function HistoryAlert({ message, tone = "warning", children }: { message: string; tone?: "warning" | "error"; children?: ReactNode }) {
  return (
    <div
      role="alert"
      className={cn(
        "mx-auto max-w-lg rounded-xl border p-6 text-center",
        tone === "warning" ? "border-amber-300 bg-amber-50 text-amber-900" : "border-red-200 bg-red-50 text-red-900",
      )}
    >
      <CircleAlert className="mx-auto size-8" aria-hidden />
      <p className="mt-3 font-medium">{message}</p>
      {children ? <div className="mt-4 flex flex-wrap justify-center gap-3">{children}</div> : null}
    </div>
  );
}
