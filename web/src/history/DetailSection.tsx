import { useId, type ReactNode } from "react";
import { Card } from "../ui/card";
import { cn } from "../ui/cn";

/** One titled section of the decision page, a landmark named by its heading. */
export function DetailSection({ title, children, className }: { title: string; children: ReactNode; className?: string }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className={cn("min-w-0", className)}>
      <Card className="h-full p-4 sm:p-6">
        <h2 id={id} className="mb-4 text-lg font-semibold text-slate-900">
          {title}
        </h2>
        {children}
      </Card>
    </section>
  );
}
