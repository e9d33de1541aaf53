import { HISTORY_MESSAGES } from "@sd/contracts";
import { ArrowLeft } from "lucide-react";
import type { ReactNode } from "react";
import { useParams } from "react-router";
import { SignedOutError } from "../api/authorized";
import { ApiError } from "../api/client";
import { useSession } from "../auth/session-context";
import { useSignIn } from "../auth/sign-in-context";
import { DecisionDetail } from "../history/DecisionDetail";
import { HistoryAlert } from "../history/HistoryAlert";
import { DecisionSkeleton } from "../history/Skeletons";
import { useDecision, useDecisionImageAssets, useProviderLabels } from "../history/useHistoryQueries";
import { Page } from "../layout/Page";
import { Button, ButtonLink } from "../ui/button";

function BackToDashboard({ variant = "secondary" }: { variant?: "secondary" | "ghost" }) {
  return (
    <ButtonLink to="/dashboard" variant={variant}>
      <ArrowLeft className="size-4" aria-hidden />
      Back to Dashboard
    </ButtonLink>
  );
}

function Failure({ message, children }: { message: string; children?: ReactNode }) {
  return (
    <Page title="Decision">
      <HistoryAlert tone="error" message={message}>
        <BackToDashboard />
        {children}
      </HistoryAlert>
    </Page>
  );
}

/** What the page says when the decision cannot be shown. */
function failureText(error: Error): string {
  if (error instanceof SignedOutError) return HISTORY_MESSAGES.detailAuthRequired;
  if (error instanceof ApiError && error.status === 404) return HISTORY_MESSAGES.notFound;
  return HISTORY_MESSAGES.detailFetchFailed;
}

/** /decision/{id}: one decision of the signed-in user, in full. */
export default function DecisionPage() {
  const id = (useParams().id ?? "").trim();
  const { loading, authenticated, user } = useSession();
  const { openSignIn } = useSignIn();
  const userId = authenticated && user ? user.id : null;
  const decision = useDecision(id, userId);
  // With or without a token; a failure is only logged.
  const assets = useDecisionImageAssets(id, userId);
  const providers = useProviderLabels();

  if (loading) {
    return (
      <Page title="Decision">
        <DecisionSkeleton />
      </Page>
    );
  }
  if (id === "") return <Failure message={HISTORY_MESSAGES.idRequired} />;
  if (!authenticated || decision.error instanceof SignedOutError) {
    return (
      <Failure message={HISTORY_MESSAGES.detailAuthRequired}>
        <Button onClick={openSignIn}>Sign in</Button>
      </Failure>
    );
  }
  if (decision.error) return <Failure message={failureText(decision.error)} />;
  if (!decision.data || providers.loading) {
    return (
      <Page title="Decision">
        <DecisionSkeleton />
      </Page>
    );
  }
  return (
    <Page title="Decision">
      <div className="mb-4">
        <BackToDashboard variant="ghost" />
      </div>
      <DecisionDetail
        key={decision.data.id}
        decision={decision.data}
        userId={userId ?? ""}
        providers={providers}
        assets={{ assets: assets.data ?? [], loading: assets.isPending && assets.fetchStatus !== "idle" }}
      />
    </Page>
  );
}
