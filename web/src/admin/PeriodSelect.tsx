import type { AdminPeriod } from "@sd/contracts";
import { AdminPeriodSchema } from "@sd/contracts";
import { useId } from "react";
import { PERIOD_OPTIONS } from "./format";

/** A period select: Last Day, Last Week, Last Month. */
export function PeriodSelect({ label, value, onChange }: { label: string; value: AdminPeriod; onChange: (period: AdminPeriod) => void }) {
  const id = useId();
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      <select
        id={id}
        value={value}
        onChange={(event) => {
          const period = AdminPeriodSchema.safeParse(event.target.value);
          if (period.success) onChange(period.data);
        }}
        className="h-9 rounded-lg border border-slate-300 bg-white px-2 text-sm text-slate-900"
      >
        {PERIOD_OPTIONS.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
