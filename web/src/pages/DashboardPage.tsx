import { HISTORY_MESSAGES } from "@sd/contracts";
import { Filter, History, LoaderCircle, RefreshCw, Scale } from "lucide-react";
import { useCallback, useState, type ReactNode } from "react";
import { useSearchParams } from "react-router";
import { SignedOutError } from "../api/authorized";
import { useSession } from "../auth/session-context";
import { useSignIn } from "../auth/sign-in-context";
import { BatchesTab } from "../batches/BatchesTab";
import { DASHBOARD_TAB_PARAM, DASHBOARD_TABS, dashboardTabFromParam, searchWithTab, type DashboardTab } from "../batches/format";
import { DashboardFilters } from "../history/DashboardFilters";
import { DecisionCard } from "../history/DecisionCard";
import { ExportMenu } from "../history/ExportMenu";
import { HistoryUnavailableError } from "../history/history-api";
import { ALL_CATEGORIES, filtersProblem, isFiltered } from "../history/history-filters";
import { HistoryAlert } from "../history/HistoryAlert";
import { DashboardSkeleton } from "../history/Skeletons";
import { useDebouncedFilters } from "../history/useDebouncedFilters";
import { useHistoryList, useInvalidateHistory, useProviderLabels } from "../history/useHistoryQueries";
import { useLiveHistory } from "../history/useLiveHistory";
import { useSeenCategories } from "../history/useSeenCategories";
import { Page } from "../layout/Page";
import { Button, ButtonLink } from "../ui/button";
import { LiveHeading } from "../ui/live-heading";
import { Tabs } from "../ui/tabs";

const FILTERS_ID = "dashboard-filters";

/** What the dashboard says when a page cannot be loaded. */
function failureText(error: Error): string {
  return error instanceof HistoryUnavailableError ? error.message : HISTORY_MESSAGES.fetchFailed;
}

function Heading({ live, children }: { live: boolean; children?: ReactNode }) {
  return (
    <LiveHeading title="Decision History" description="Every decision you made while signed in, newest first." live={live} liveTitle="New decisions appear here as they are made">
      {children}
    </LiveHeading>
  );
}

/** The open tab, kept in the URL (`?tab=batches`) with `replace`, so switching does not fill the Back button's history. */
function useDashboardTab(): [DashboardTab, (tab: DashboardTab) => void] {
  const [params, setParams] = useSearchParams();
  const tab = dashboardTabFromParam(params.get(DASHBOARD_TAB_PARAM));
  const setTab = useCallback((next: DashboardTab) => setParams((previous) => searchWithTab(previous, next), { replace: true }), [setParams]);
  return [tab, setTab];
}

/** /dashboard: the signed-in user's decision history and batches, one tab each. */
export default function DashboardPage() {
  const { loading, authenticated, expired, user, tokens } = useSession();
  const { openSignIn } = useSignIn();
  const [tab, setTab] = useDashboardTab();
  const userId = authenticated && user ? user.id : null;
  const accessToken = authenticated ? (tokens?.access_token ?? null) : null;

  if (loading) {
    return (
      <Page title="Dashboard">
        <Heading live={false} />
        <DashboardSkeleton />
      </Page>
    );
  }
  if (!userId) {
    return (
      <Page title="Dashboard">
        <Heading live={false} />
        <HistoryAlert message={expired ? HISTORY_MESSAGES.sessionExpired : HISTORY_MESSAGES.authRequired}>
          <Button onClick={openSignIn}>{expired ? "Sign in again" : "Sign in"}</Button>
        </HistoryAlert>
      </Page>
    );
  }
  const content: Record<DashboardTab, ReactNode> = {
    decisions: <DecisionsTab userId={userId} accessToken={accessToken} expired={expired} onSignIn={openSignIn} />,
    batches: <BatchesTab userId={userId} accessToken={accessToken} onSignIn={openSignIn} />,
  };
  return (
    <Page title="Dashboard">
      <Tabs
        label="Dashboard sections"
        value={tab}
        onValueChange={(value) => setTab(dashboardTabFromParam(value))}
        items={DASHBOARD_TABS.map((each) => ({ value: each.id, label: each.label, content: content[each.id] }))}
      />
    </Page>
  );
}

/** The Decisions tab: the signed-in user's decision history, live, with its filters and export. */
function DecisionsTab({ userId, accessToken, expired, onSignIn }: { userId: string; accessToken: string | null; expired: boolean; onSignIn: () => void }) {
  const filters = useDebouncedFilters();
  const [showFilters, setShowFilters] = useState(() => isFiltered(filters.applied));
  // A filtered URL (a bookmark, a shared link, Back) shows the filters it applies; hiding them stays the user's choice.
  const [filtersShownFor, setFiltersShownFor] = useState(filters.applied);
  if (filtersShownFor !== filters.applied) {
    setFiltersShownFor(filters.applied);
    if (isFiltered(filters.applied)) setShowFilters(true);
  }
  const problem = filtersProblem(filters.applied);
  const list = useHistoryList(userId, filters.applied, problem === null);
  const providers = useProviderLabels();
  const invalidate = useInvalidateHistory(userId);
  // A decision this user makes anywhere (another tab, the API) reloads the list: no polling.
  const live = useLiveHistory(userId, accessToken, invalidate);
  const categories = useSeenCategories(userId, list.decisions, filters.draft.category === ALL_CATEGORIES ? "" : filters.draft.category);

  if (list.error instanceof SignedOutError) {
    return (
      <>
        <Heading live={false} />
        <HistoryAlert message={expired ? HISTORY_MESSAGES.sessionExpired : HISTORY_MESSAGES.authRequired}>
          <Button onClick={onSignIn}>{expired ? "Sign in again" : "Sign in"}</Button>
        </HistoryAlert>
      </>
    );
  }

  const refreshing = list.fetching && !list.loadingMore;
  const refresh = () => void list.refresh();
  const filtered = isFiltered(filters.applied);
  return (
    <>
      <Heading live={live}>
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" aria-expanded={showFilters} aria-controls={FILTERS_ID} onClick={() => setShowFilters((shown) => !shown)}>
            <Filter className="size-4" aria-hidden />
            {showFilters ? "Hide Filters" : "Show Filters"}
          </Button>
          <Button variant="secondary" onClick={refresh} disabled={refreshing} aria-busy={refreshing}>
            <RefreshCw className={refreshing ? "size-4 animate-spin" : "size-4"} aria-hidden />
            Refresh
          </Button>
          <ExportMenu filters={filters.applied} />
        </div>
      </Heading>

      {showFilters ? (
        <div className="mb-6">
          <DashboardFilters
            id={FILTERS_ID}
            filters={filters.draft}
            categories={categories}
            shown={list.decisions.length}
            problem={filtersProblem(filters.draft)}
            onChange={filters.change}
            onApply={filters.apply}
            onClear={filters.clear}
          />
        </div>
      ) : null}

      {list.error ? (
        <div className="mb-6">
          <HistoryAlert tone="error" message={failureText(list.error)}>
            <Button variant="secondary" onClick={refresh}>
              Try again
            </Button>
          </HistoryAlert>
        </div>
      ) : null}

      {list.loading || providers.loading ? (
        <DashboardSkeleton />
      ) : list.decisions.length === 0 && !list.error ? (
        filtered ? (
          <div className="rounded-xl border border-dashed border-slate-300 p-10 text-center">
            <p className="font-medium text-slate-700">No decisions match these filters.</p>
            <Button variant="secondary" className="mt-4" onClick={filters.clear}>
              Clear Filters
            </Button>
          </div>
        ) : (
          <div className="rounded-xl border border-dashed border-slate-300 p-10 text-center">
            <History className="mx-auto size-10 text-slate-400" aria-hidden />
            <h2 className="mt-3 text-lg font-semibold text-slate-900">No decisions yet</h2>
            <p className="mt-1 text-slate-600">Decisions you make while signed in are saved here.</p>
            <ButtonLink to="/playground" className="mt-4">
              <Scale className="size-4" aria-hidden />
              Make a Decision
            </ButtonLink>
          </div>
        )
      ) : (
        <ul aria-label="Decisions" className="space-y-4" aria-busy={list.fetching}>
          {list.decisions.map((decision) => (
            <li key={decision.id}>
              <DecisionCard decision={decision} labels={providers.labels} />
            </li>
          ))}
        </ul>
      )}

      <div className="mt-8 flex flex-col items-center gap-3">
        {list.hasMore ? (
          <Button variant="secondary" onClick={list.loadMore} disabled={list.loadingMore} aria-busy={list.loadingMore}>
            {list.loadingMore ? <LoaderCircle className="size-4 animate-spin" aria-hidden /> : null}
            {list.loadingMore ? "Loading..." : `Load more (${list.total - list.decisions.length} more)`}
          </Button>
        ) : null}
        <Button variant="ghost" onClick={refresh} disabled={refreshing}>
          <RefreshCw className={refreshing ? "size-4 animate-spin" : "size-4"} aria-hidden />
          {refreshing ? "Refreshing..." : "Refresh Dashboard"}
        </Button>
      </div>
    </>
  );
}
