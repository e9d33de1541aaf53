import type { Usage } from "@sd/contracts";
import { useId } from "react";
import { Button } from "../ui/button";
import { formatRequests, formatStorage, usageShare } from "./format";
import { SettingsSection } from "./SettingsSection";

/** One measured allowance: its figure ("N / 1,000") and a bar of the share used. */
function UsageBar({ label, period, used, limit, text }: { label: string; period: string; used: number; limit: number; text: string }) {
  const id = useId();
  const share = usageShare(used, limit);
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
        <div>
          <h3 id={id} className="font-medium text-slate-900">
            {label}
          </h3>
          <p className="text-xs text-slate-500">{period}</p>
        </div>
        <p className="font-mono text-sm text-slate-800" data-testid={`${label}-figure`}>
          {text}
        </p>
      </div>
      <div
        role="progressbar"
        aria-labelledby={id}
        aria-valuemin={0}
        aria-valuemax={limit}
        aria-valuenow={Math.min(used, limit)}
        aria-valuetext={text}
        className="h-2 overflow-hidden rounded-full bg-slate-100"
      >
        <div className={share >= 0.9 ? "h-full rounded-full bg-amber-500" : "h-full rounded-full bg-brand-600"} style={{ width: `${share * 100}%` }} />
      </div>
    </div>
  );
}

/**
 * Limits: API requests made with the
 * user's keys this calendar month (UTC) against 1,000, and stored image assets against 1 GB.
 */
export function LimitsSection({ usage, loading, failed, onRetry }: { usage: Usage | undefined; loading: boolean; failed: boolean; onRetry: () => void }) {
  return (
    <SettingsSection title="Limits" description="What your account used of the free tier. API calls past the monthly limit are refused until the month ends.">
      {usage ? (
        <div className="space-y-6" aria-busy={loading}>
          <UsageBar
            label="API Requests"
            period="This month"
            used={usage.api_requests}
            limit={usage.api_request_limit}
            text={formatRequests(usage.api_requests, usage.api_request_limit)}
          />
          <UsageBar
            label="Storage"
            period="Images stored with your decisions"
            used={usage.storage_bytes}
            limit={usage.storage_limit_bytes}
            text={formatStorage(usage.storage_bytes, usage.storage_limit_bytes)}
          />
        </div>
      ) : failed ? (
        <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-4 text-sm text-red-900">
          <p>Your usage could not be loaded.</p>
          <Button variant="secondary" size="sm" className="mt-3" onClick={onRetry}>
            Try again
          </Button>
        </div>
      ) : (
        <div role="status" aria-label="Loading usage" className="space-y-6">
          <div className="h-12 animate-pulse rounded-md bg-slate-200" />
          <div className="h-12 animate-pulse rounded-md bg-slate-200" />
        </div>
      )}
    </SettingsSection>
  );
}
