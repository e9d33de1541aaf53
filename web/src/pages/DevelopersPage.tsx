import { useMemo } from "react";
import { LIMITS, SOCKET_EVENTS } from "@sd/contracts";
import { CONTACT, mailto } from "../content/contact";
import { Page } from "../layout/Page";
import { CodeSample } from "../site/CodeSample";
import { API_PATHS, developerGuide, GUIDE_TABS } from "../site/code-samples";
import { Card } from "../ui/card";
import { Tabs } from "../ui/tabs";

/** SDKs announced but not released yet. */
const COMING_SOON_SDKS = ["Go", "Rust", "Java", "C#", "PHP", "Ruby"] as const;

const ENDPOINTS = [
  {
    method: "POST",
    path: API_PATHS.decision,
    body: "{question, categories, images?, request_id?}",
    answer: "{final_decision, total_votes, vote_counts, individual_responses, context_explanation, decision_id, question}",
  },
  {
    method: "POST",
    path: API_PATHS.suggestion,
    body: "{question, images, existing_choices}",
    answer: "{suggestions: [{category, confidence}]}",
  },
] as const;

const ERRORS = [
  { status: "400", meaning: "The request is invalid; detail says what to fix." },
  { status: "409", meaning: "The request_id was already used: send a new UUID for each decision." },
  { status: "413", meaning: "The images are too large." },
  { status: "429", meaning: "Too many requests from your address: wait and try again." },
  { status: "504", meaning: "The models took too long; the decision still completes and is stored." },
] as const;

function Code({ children }: { children: string }) {
  return <code className="rounded bg-slate-100 px-1 py-0.5 text-[0.9em] text-slate-800">{children}</code>;
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
              <div key={endpoint.path} className="space-y-1">
                <dt className="font-mono font-semibold text-slate-900">
                  <span className="text-brand-700">{endpoint.method}</span> {endpoint.path}
                </dt>
                <dd className="text-slate-600">
                  Body <Code>{endpoint.body}</Code>
                </dd>
                <dd className="text-slate-600">
                  Answer <Code>{endpoint.answer}</Code>
                </dd>
              </div>
            ))}
          </dl>
          <p className="text-sm text-slate-600">
            At least {LIMITS.minCategories} categories; up to {LIMITS.maxImages} images as data URLs, each under 10MB. Send{" "}
            <Code>Content-Type: application/json</Code>.
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
          <Code>{origin}</Code>, with live votes over Socket.IO.
        </p>
      </header>
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
