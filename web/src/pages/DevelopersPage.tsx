import { useMemo } from "react";
import { Link } from "react-router";
import { API_KEY_HEADER, FREE_TIER, LIMITS, SOCKET_EVENTS, V1_HEADERS, V1_VOTE_STATUSES } from "@sd/contracts";
import { CONTACT, mailto } from "../content/contact";
import { Page } from "../layout/Page";
import { CodeSample } from "../site/CodeSample";
import { API_KEY_ENV, API_PATHS, developerGuide, DOCS_PATH, GUIDE_TABS, OPENAPI_PATH, SDK_INSTALL, SDK_PACK } from "../site/code-samples";
import { Card } from "../ui/card";
import { Tabs } from "../ui/tabs";

/** SDKs announced but not released yet. */
const COMING_SOON_SDKS = ["Go", "Rust", "Java", "C#", "PHP", "Ruby"] as const;

const ENDPOINTS = [
  {
    method: "POST",
    path: API_PATHS.ensemble,
    body: "{prompt, valid_responses, images?, request_id?}",
    answer: `{decision_id, ensemble_decision, vote_details: [{llm_name, response, confidence, status: ${V1_VOTE_STATUSES.map((s) => `"${s}"`).join(" | ")}}], total_votes, consensus_score}`,
  },
  {
    method: "GET",
    path: `${API_PATHS.decisionStatus}/{id}`,
    body: null,
    answer: '{decision_id, status: "pending" | "complete", result}',
  },
  {
    method: "GET",
    path: `${API_PATHS.history}?limit&offset&category&question&dateFrom&dateTo&hasDecision`,
    body: null,
    answer: "{success, decisions, message, total, limit, offset}",
  },
] as const;

const ERRORS = [
  { status: "400", meaning: "The request is invalid; detail says what to fix." },
  { status: "401", meaning: `No ${API_KEY_HEADER} header, or a key that is unknown, deleted or switched off.` },
  { status: "404", meaning: "No such decision among yours." },
  { status: "409", meaning: "The request_id was already used: send a new UUID for each decision." },
  { status: "413", meaning: "The images are too large." },
  { status: "422", meaning: `The ${V1_HEADERS.idempotencyKey} was already used with another body.` },
  {
    status: "429",
    meaning: `Too many requests for this key, or the ${FREE_TIER.apiRequestsPerMonth.toLocaleString("en-US")} requests of the month are used up: wait as Retry-After says.`,
  },
  { status: "504", meaning: `The models took too long; the decision still completes and is stored (use ${V1_HEADERS.prefer}: ${V1_HEADERS.respondAsync}).` },
] as const;

const linkClass = "font-medium text-brand-700 underline underline-offset-2";

function Code({ children }: { children: string }) {
  return <code className="rounded bg-slate-100 px-1 py-0.5 text-[0.9em] break-words text-slate-800">{children}</code>;
}

function GettingStarted() {
  return (
    <section aria-labelledby="start-title" className="grid gap-6 lg:grid-cols-2">
      <h2 id="start-title" className="sr-only">
        Getting started
      </h2>
      <Card className="min-w-0 space-y-3">
        <h3 className="text-lg font-semibold text-slate-900">1. Create an API key</h3>
        <p className="text-sm text-slate-600">
          Sign in and create a key on{" "}
          <Link to="/settings" className={linkClass}>
            API Settings
          </Link>
          . Send it in the <Code>{API_KEY_HEADER}</Code> header of every call; the samples read it from the{" "}
          <Code>{API_KEY_ENV}</Code> environment variable, so it stays out of your code.
        </p>
      </Card>
      <Card className="min-w-0 space-y-3">
        <h3 className="text-lg font-semibold text-slate-900">2. Install the TypeScript SDK</h3>
        <p className="text-sm text-slate-600">
          In a clone of this repository, <Code>{SDK_PACK}</Code> packs it; <Code>{SDK_INSTALL}</Code> in your project gives typed
          answers and errors, async submit and poll, history and live votes, for Node.js and browsers. Any other language calls the
          REST API directly.
        </p>
        <p className="text-sm text-slate-600">
          Every endpoint, field, error and header is in the{" "}
          <a href={DOCS_PATH} className={linkClass}>
            interactive API reference
          </a>{" "}
          (OpenAPI document: <a href={OPENAPI_PATH} className={linkClass}>{OPENAPI_PATH}</a>).
        </p>
      </Card>
    </section>
  );
}

function Reference() {
  return (
    <section aria-labelledby="reference-title" className="space-y-6">
      <h2 id="reference-title" className="text-2xl font-bold tracking-tight text-slate-900">
        Reference
      </h2>
      <div className="grid gap-6 lg:grid-cols-2">
        <Card className="min-w-0 space-y-4">
          <h3 className="text-lg font-semibold text-slate-900">Endpoints</h3>
          <dl className="space-y-4 text-sm">
            {ENDPOINTS.map((endpoint) => (
              <div key={endpoint.path} className="min-w-0 space-y-1">
                <dt className="font-mono font-semibold break-words text-slate-900">
                  <span className="text-brand-700">{endpoint.method}</span> {endpoint.path}
                </dt>
                {endpoint.body ? (
                  <dd className="text-slate-600">
                    Body <Code>{endpoint.body}</Code>
                  </dd>
                ) : null}
                <dd className="text-slate-600">
                  Answer <Code>{endpoint.answer}</Code>
                </dd>
              </div>
            ))}
          </dl>
          <p className="text-sm text-slate-600">
            At least {LIMITS.minCategories} valid responses; up to {LIMITS.maxImages} images as data URLs, each under 10MB. Send{" "}
            <Code>Content-Type: application/json</Code>. <Code>consensus_score</Code> is the winning response&apos;s share of the valid
            votes, from 0 to 1.
          </p>
          <p className="text-sm text-slate-600">
            Long decisions: send <Code>{`${V1_HEADERS.prefer}: ${V1_HEADERS.respondAsync}`}</Code> for a 202 with the decision&apos;s id
            at once, then poll it. An <Code>{V1_HEADERS.idempotencyKey}</Code> makes a retried POST return the first decision.
          </p>
        </Card>
        <Card className="min-w-0 space-y-4">
          <h3 className="text-lg font-semibold text-slate-900">Live votes (Socket.IO)</h3>
          <ol className="list-decimal space-y-2 pl-5 text-sm text-slate-600">
            <li>
              Connect a Socket.IO client to the same address and emit <Code>{SOCKET_EVENTS.join}</Code> with{" "}
              <Code>{"{request_id}"}</Code> (a new UUID) and an acknowledgement callback; it answers <Code>{"{ok: true}"}</Code>.
            </li>
            <li>
              Post the decision with the same <Code>request_id</Code>.
            </li>
            <li>
              Receive <Code>{SOCKET_EVENTS.vote}</Code> for each model (<Code>pending</Code>, then <Code>success</Code> or{" "}
              <Code>error</Code>, with its response and confidence) and <Code>{SOCKET_EVENTS.final}</Code> with the decision.
            </li>
          </ol>
          <p className="text-sm text-slate-600">
            The SDK does all three when you pass <Code>onVote</Code> to <Code>decide()</Code>.
          </p>
          <h3 className="text-lg font-semibold text-slate-900">Errors</h3>
          <p className="text-sm text-slate-600">
            Errors are JSON <Code>{"{detail}"}</Code> with one of these statuses:
          </p>
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
            {ERRORS.map((error) => (
              <div key={error.status} className="contents">
                <dt className="font-mono font-semibold text-slate-900">{error.status}</dt>
                <dd className="text-slate-600">{error.meaning}</dd>
              </div>
            ))}
          </dl>
        </Card>
      </div>
    </section>
  );
}

function ComingSoonSdks() {
  return (
    <section aria-labelledby="sdks-title" className="space-y-6">
      <div>
        <h2 id="sdks-title" className="text-2xl font-bold tracking-tight text-slate-900">
          More SDKs
        </h2>
        <p className="mt-2 text-slate-600">
          Native libraries for more languages are on the way. Want one sooner?{" "}
          <a href={mailto(CONTACT.support, "SDK request")} className="font-medium text-brand-700 underline underline-offset-2">
            Tell us
          </a>
          .
        </p>
      </div>
      <ul className="grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-6">
        {COMING_SOON_SDKS.map((language) => (
          <li key={language}>
            <Card className="flex h-full flex-col items-center gap-2 p-4 text-center">
              <h3 className="font-semibold text-slate-900">{language}</h3>
              <span className="rounded-full bg-amber-100 px-2.5 py-0.5 text-xs font-medium text-amber-800">Coming Soon</span>
            </Card>
          </li>
        ))}
      </ul>
    </section>
  );
}

export default function DevelopersPage() {
  const origin = window.location.origin;
  const guide = useMemo(() => developerGuide(origin), [origin]);
  return (
    <Page title="Developers" className="space-y-16">
      <header className="max-w-3xl">
        <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">Developer Guide</h1>
        <p className="mt-3 text-slate-600">
          Ask several AI models one question from your own code. The API is plain JSON over HTTP at{" "}
          <Code>{origin}</Code>, authenticated with an API key, with live votes over Socket.IO.
        </p>
        <p className="mt-3">
          <a href={DOCS_PATH} className={linkClass}>
            API reference
          </a>
        </p>
      </header>
      <GettingStarted />
      <section aria-labelledby="samples-title" className="space-y-4">
        <h2 id="samples-title" className="text-2xl font-bold tracking-tight text-slate-900">
          Code samples
        </h2>
        <Tabs
          label="Language"
          items={GUIDE_TABS.map((tab) => ({
            value: tab.value,
            label: tab.label,
            content: (
              <div className="space-y-8">
                {guide[tab.value].map((sample) => (
                  <CodeSample key={sample.id} sample={sample} />
                ))}
              </div>
            ),
          }))}
        />
      </section>
      <Reference />
      <ComingSoonSdks />
    </Page>
  );
}
