import { DEFAULT_ENSEMBLE_MODE, type DecisionHistoryItem, type ImageAsset } from "@sd/contracts";
import { Clock, Timer } from "lucide-react";
import { useState } from "react";
import { Card } from "../ui/card";
import { ImageAssetsSection, ImagesSection, type AssetsState } from "./DecisionImages";
import { DecisionBadge } from "./DecisionBadge";
import { EnsembleRecordSection } from "./EnsembleRecordSection";
import { DetailSection } from "./DetailSection";
import type { DecisionDetailItem } from "./history-api";
import { formatLocalTime, formatProcessingTime, formatRelativeTime, voteRows } from "./format";
import { ImageViewerDialog } from "./ImageViewerDialog";
import { ModelResponseList } from "./ModelResponseList";
import { VoteBars } from "../ui/vote-bars";

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
          <dd className="mt-0.5 font-mono text-sm text-slate-800">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Everything about one decision. */
export function DecisionDetail({ decision, assets, labels }: { decision: DecisionDetailItem; assets: AssetsState; labels: ReadonlyMap<string, string> }) {
  const [viewing, setViewing] = useState<ImageAsset | null>(null);
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
        </div>
      </Card>

      <div className="grid gap-6 lg:grid-cols-2">
        <DetailSection title="Available Categories">
          <ul className="flex flex-wrap gap-2" aria-label="Available categories">
            {decision.categories.map((category) => (
              <li key={category} className="max-w-full rounded-full border border-slate-200 bg-slate-50 px-3 py-1 text-sm text-slate-800">
                {category}
              </li>
            ))}
          </ul>
        </DetailSection>
        <DetailSection title="Vote Results">
          <VoteBars rows={voteRows(decision)} label="Vote results" />
        </DetailSection>
      </div>

      <DetailSection title="Why this decision?">
        {/* One line per model: keep the line breaks. */}
        <p className="text-sm whitespace-pre-line text-slate-800">{decision.context_explanation}</p>
      </DetailSection>

      <div className="grid gap-6 lg:grid-cols-2">
        <ImagesSection imageIds={decision.images} state={assets} onOpen={setViewing} />
        <ImageAssetsSection state={assets} expected={decision.images.length} onOpen={setViewing} />
      </div>

      <DetailSection title="Model Responses">
        <ModelResponseList decision={decision} labels={labels} />
      </DetailSection>

      {decision.ensemble ? <EnsembleRecordSection record={decision.ensemble} labels={labels} /> : null}

      <DetailSection title="Decision Metadata">
        <Metadata decision={decision} />
      </DetailSection>

      <ImageViewerDialog asset={viewing} onClose={() => setViewing(null)} />
    </div>
  );
}
