import { useId, type ReactNode } from "react";
import { Card } from "../ui/card";

/** One section of the settings page: a landmark named by its heading, with an optional action beside it. */
export function SettingsSection({ title, description, action, children }: { title: string; description?: ReactNode; action?: ReactNode; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="min-w-0">
      <Card className="p-4 sm:p-6">
        <div className="mb-5 flex flex-wrap items-start justify-between gap-4">
          <div className="min-w-0 space-y-1">
            <h2 id={id} className="text-xl font-semibold text-slate-900">
              {title}
            </h2>
            {description ? <p className="text-sm text-slate-600">{description}</p> : null}
          </div>
          {action}
        </div>
        {children}
      </Card>
    </section>
  );
}
