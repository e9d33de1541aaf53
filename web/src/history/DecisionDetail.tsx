import { DEFAULT_ENSEMBLE_MODE, type DecisionHistoryItem } from "@sd/contracts";
import { Clock, CornerUpLeft, Timer } from "lucide-react";
import { useState } from "react";
import { Link } from "react-router";
import { ApiError } from "../api/client";
import { Card } from "../ui/card";
import { CompareSection, type RerunControl } from "./CompareSection";
import { ImagesSection, type AssetsState } from "./DecisionImages";
import { DecisionBadge } from "./DecisionBadge";
import { DecisionOutcome } from "./DecisionOutcome";
import { EnsembleRecordSection } from "./EnsembleRecordSection";
import { DetailSection } from "./DetailSection";
import type { DecisionDetailItem } from "./history-api";
import { formatLocalTime, formatProcessingTime, formatRelativeTime } from "./format";
import { ImageViewerDialog } from "./ImageViewerDialog";
import { ModelResponseList } from "./ModelResponseList";
import { ModelUsageSection } from "./ModelUsageSection";
import { RerunSection } from "./RerunSection";
import { ShareControl } from "./ShareControl";
import { useRerunDecision, type ProviderLabels } from "./useHistoryQueries";

function Metadata({ decision }: { decision: DecisionHistoryItem }) {
  const rows: [string, string][] = [
    ["Decision ID", decision.id],
    ["Total Votes", String(decision.total_votes)],
    ["Processing Time", formatProcessingTime(decision.processing_time_ms)],
    ["Ensemble Mode", decision.ensemble_mode || DEFAULT_ENSEMBLE_MODE],
    ["Authenticated", decision.is_authenticated ? "Yes" : "No"],
  ];
  if (decision.user_ip) rows.push(["IP Address", decision.user_ip]);
  return (
    <dl className="grid gap-3 sm:grid-cols-2">
      {rows.map(([label, value]) => (
        <div key={label} className="min-w-0">
          <dt className="text-xs font-semibold tracking-wide text-slate-500 uppercase">{label}</dt>
          <dd className="mt-0.5 font-mono text-sm [overflow-wrap:anywhere] text-slate-800">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** What a failed re-run says: the server's detail, else a plain sentence. */
const rerunErrorText = (error: Error | null) => (error === null ? null : error instanceof ApiError && error.message ? error.message : "The decision could not be re-run. Please try again.");

/** Everything about one decision: what was asked and decided, how, at what cost, what the other modes say, and its re-runs. */
export function DecisionDetail({
  decision,
  assets,
  providers,
  userId,
}: {
  decision: DecisionDetailItem;
  assets: AssetsState;
  providers: Pick<ProviderLabels, "labels" | "models">;
  userId: string;
}) {
  const { labels, models } = providers;
  const [viewing, setViewing] = useState<number | null>(null);
  const mutation = useRerunDecision(decision.id, userId);
  const rerun: RerunControl = { run: (options) => mutation.mutate(options), pending: mutation.isPending };
  const mode = decision.ensemble?.mode ?? DEFAULT_ENSEMBLE_MODE;
  return (
    <div className="space-y-6">
      <Card className="p-4 sm:p-6">
        <div className="flex flex-wrap items-start justify-between gap-4">
          <h1 className="min-w-0 flex-1 text-2xl font-bold text-slate-900 sm:text-3xl">{decision.question}</h1>
          <DecisionBadge decision={decision.final_decision} className="text-base" />
        </div>
        <div className="mt-3 flex flex-wrap gap-x-6 gap-y-1 text-sm text-slate-600">
          <span className="inline-flex items-center gap-1.5">
            <Clock className="size-4" aria-hidden />
            <time dateTime={decision.timestamp} data-testid="decision-time">
              {formatLocalTime(decision.timestamp)}
            </time>
            <span data-testid="decision-age">({formatRelativeTime(decision.timestamp, Date.now())})</span>
          </span>
          <span className="inline-flex items-center gap-1.5" data-testid="processing-time">
            <Timer className="size-4" aria-hidden />
            Processing time: {formatProcessingTime(decision.processing_time_ms)}
          </span>
          {decision.rerun_of ? (
            <span className="inline-flex items-center gap-1.5" data-testid="rerun-of">
              <CornerUpLeft className="size-4" aria-hidden />
              <span>
                Re-run of{" "}
                <Link to={`/decision/${encodeURIComponent(decision.rerun_of)}`} className="font-medium text-brand-700 underline">
                  the first decision
                </Link>
              </span>
            </span>
          ) : null}
        </div>
      </Card>

      <DecisionOutcome decision={decision} />

      <ImagesSection imageIds={decision.images} state={assets} onOpen={setViewing} />

      <DetailSection title="Model Responses">
        <ModelResponseList decision={decision} labels={labels} />
      </DetailSection>

      <ModelUsageSection decision={decision} labels={labels} />

      {decision.ensemble ? <EnsembleRecordSection record={decision.ensemble} labels={labels} /> : null}

      {decision.compare ? <CompareSection comparison={decision.compare} rerun={rerun} /> : null}

      <RerunSection
        key={decision.id}
        models={models}
        mode={mode}
        panel={decision.ensemble?.panel ?? Object.keys(decision.individual_responses)}
        reruns={decision.reruns}
        rerun={rerun}
        error={rerunErrorText(mutation.error)}
      />

      <ShareControl decisionId={decision.id} userId={userId} imageCount={decision.images.length} />

      <DetailSection title="Decision Metadata">
        <Metadata decision={decision} />
      </DetailSection>

      <ImageViewerDialog assets={assets.assets} index={viewing} onIndexChange={setViewing} onClose={() => setViewing(null)} />
    </div>
  );
}
