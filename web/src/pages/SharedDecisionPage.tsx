import { SHARE_MESSAGES, type SharedDecision } from "@sd/contracts";
import { Clock, Eye, Timer } from "lucide-react";
import { useParams } from "react-router";
import { ApiError } from "../api/client";
import { DecisionBadge } from "../history/DecisionBadge";
import { DecisionOutcome } from "../history/DecisionOutcome";
import { DetailSection } from "../history/DetailSection";
import { formatLocalTime, formatProcessingTime } from "../history/format";
import { HistoryAlert } from "../history/HistoryAlert";
import { ModelResponseList } from "../history/ModelResponseList";
import { useSharedDecision } from "../history/share-api";
import { DecisionSkeleton } from "../history/Skeletons";
import { useProviderLabels } from "../history/useHistoryQueries";
import { Page } from "../layout/Page";
import { ButtonLink } from "../ui/button";
import { Card } from "../ui/card";

function SharedView({ decision, labels }: { decision: SharedDecision; labels: ReadonlyMap<string, string> }) {
  return (
    <div className="space-y-6">
      <p className="inline-flex items-center gap-2 rounded-full bg-slate-100 px-3 py-1 text-sm text-slate-700">
        <Eye className="size-4" aria-hidden />
        Shared read-only by its owner
      </p>
      <Card className="p-4 sm:p-6">
        <div className="flex flex-wrap items-start justify-between gap-4">
          <h1 className="min-w-0 flex-1 text-2xl font-bold [overflow-wrap:anywhere] text-slate-900 sm:text-3xl">{decision.question}</h1>
          <DecisionBadge decision={decision.final_decision} className="text-base" />
        </div>
        <div className="mt-3 flex flex-wrap gap-x-6 gap-y-1 text-sm text-slate-600">
          <span className="inline-flex items-center gap-1.5">
            <Clock className="size-4" aria-hidden />
            <time dateTime={decision.timestamp}>{formatLocalTime(decision.timestamp)}</time>
          </span>
          <span className="inline-flex items-center gap-1.5">
            <Timer className="size-4" aria-hidden />
            Processing time: {formatProcessingTime(decision.processing_time_ms)}
          </span>
        </div>
      </Card>
      <DecisionOutcome decision={decision} />
      {decision.images.length > 0 ? (
        <DetailSection title={`Images (${decision.images.length})`}>
          <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3">
            {decision.images.map((image) => (
              <li key={image.label} className="min-w-0">
                <img src={image.image_data} alt={image.label} className="aspect-square w-full rounded-lg border border-slate-200 object-cover" />
                <p className="mt-1 truncate text-xs text-slate-600">{image.label}</p>
              </li>
            ))}
          </ul>
        </DetailSection>
      ) : null}
      <DetailSection title="Model Responses">
        <ModelResponseList decision={{ ...decision, raw_responses: {} }} labels={labels} />
      </DetailSection>
    </div>
  );
}

/** /shared/{token}: one decision its owner shared, read-only, for anyone with the link; never indexed. */
export default function SharedDecisionPage() {
  const token = useParams().token ?? "";
  const shared = useSharedDecision(token);
  const providers = useProviderLabels();
  return (
    <Page title="Shared decision">
      {/* React hoists it into <head>; the gateway also sends X-Robots-Tag with the page and its data. */}
      <meta name="robots" content="noindex" />
      {shared.isPending || providers.loading ? (
        <DecisionSkeleton />
      ) : shared.data ? (
        <SharedView decision={shared.data.decision} labels={providers.labels} />
      ) : (
        <HistoryAlert tone="error" message={shared.error instanceof ApiError && shared.error.status === 404 ? SHARE_MESSAGES.notFound : "The shared decision could not be loaded. Please try again."}>
          <ButtonLink to="/" variant="secondary">
            Go to the home page
          </ButtonLink>
        </HistoryAlert>
      )}
    </Page>
  );
}
