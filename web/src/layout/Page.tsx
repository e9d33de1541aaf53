import type { ReactNode } from "react";
import { cn } from "../ui/cn";

/** A page's content column, with its document title. */
export function Page({ title, children, className }: { title: string; children: ReactNode; className?: string }) {
  return (
    <div className={cn("mx-auto w-full max-w-6xl px-4 py-10", className)}>
      <title>{`${title} | Smart Decision`}</title>
      {children}
    </div>
  );
}
