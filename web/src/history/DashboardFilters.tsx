import { LIMITS } from "@sd/contracts";
import { Filter, X } from "lucide-react";
import type { FormEvent, SelectHTMLAttributes } from "react";
import { Button } from "../ui/button";
import { cn } from "../ui/cn";
import { Field, Input } from "../ui/field";
import { ALL_CATEGORIES, STATUS_OPTIONS, type DecisionStatusFilter, type HistoryFilters } from "./history-filters";

function Select({ className, ...props }: SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <select
      className={cn("block h-10 w-full min-w-0 rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900 focus:border-brand-500", className)}
      {...props}
    />
  );
}

export interface DashboardFiltersProps {
  id: string;
  filters: HistoryFilters;
  categories: readonly string[];
  /** How many decisions the list shows. */
  shown: number;
  problem: string | null;
  onChange(patch: Partial<HistoryFilters>): void;
  onApply(): void;
  onClear(): void;
}

/** 'Showing N decisions' (one decision reads in the singular). */
export const showingText = (count: number) => `Showing ${count} ${count === 1 ? "decision" : "decisions"}`;

/** The dashboard's five filters, the count shown, Clear Filters and Apply Filters. */
export function DashboardFilters({ id, filters, categories, shown, problem, onChange, onApply, onClear }: DashboardFiltersProps) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply();
  };
  return (
    <form id={id} onSubmit={submit} aria-label="Filters" className="rounded-xl border border-slate-200 bg-slate-50 p-4 sm:p-6" noValidate>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
        <div className="sm:col-span-2 lg:col-span-1">
          <Field label="Question">
            {({ id: inputId }) => (
              <Input
                id={inputId}
                type="search"
                placeholder="Search questions..."
                maxLength={LIMITS.maxQuestionLength}
                value={filters.question}
                onChange={(e) => onChange({ question: e.target.value })}
              />
            )}
          </Field>
        </div>
        <Field label="Category">
          {({ id: inputId }) => (
            <Select id={inputId} value={filters.category} onChange={(e) => onChange({ category: e.target.value })}>
              <option value={ALL_CATEGORIES}>All categories</option>
              {categories.map((category) => (
                <option key={category} value={category}>
                  {category}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <Field label="Decision Status">
          {({ id: inputId }) => (
            <Select id={inputId} value={filters.status} onChange={(e) => onChange({ status: e.target.value as DecisionStatusFilter })}>
              {STATUS_OPTIONS.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <Field label="From Date" error={problem}>
          {({ id: inputId, describedBy, invalid }) => (
            <Input
              id={inputId}
              type="date"
              value={filters.dateFrom}
              max={filters.dateTo || undefined}
              aria-describedby={describedBy}
              aria-invalid={invalid}
              onChange={(e) => onChange({ dateFrom: e.target.value })}
            />
          )}
        </Field>
        <Field label="To Date">
          {({ id: inputId }) => (
            <Input id={inputId} type="date" value={filters.dateTo} min={filters.dateFrom || undefined} onChange={(e) => onChange({ dateTo: e.target.value })} />
          )}
        </Field>
      </div>
      <div className="mt-4 flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-slate-600" aria-live="polite">
          {showingText(shown)}
        </p>
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" onClick={onClear}>
            <X className="size-4" aria-hidden />
            Clear Filters
          </Button>
          <Button type="submit" disabled={problem !== null}>
            <Filter className="size-4" aria-hidden />
            Apply Filters
          </Button>
        </div>
      </div>
    </form>
  );
}
