import {
  configuredModelVersion,
  DEFAULT_ENSEMBLE_MODE,
  ENSEMBLE_MODE_LABELS,
  ENSEMBLE_MODES,
  type EnsembleMode,
  type ProvidersResponse,
} from "@sd/contracts";
import { useQuery } from "@tanstack/react-query";
import { Gavel, Mail, MessagesSquare, Scale, Vote, type LucideIcon } from "lucide-react";
import { CONTACT, mailto } from "../content/contact";
import { Page } from "../layout/Page";
import { providersQuery } from "../playground/playground-api";
import { buttonClass, ButtonLink } from "../ui/button";
import { Card } from "../ui/card";

type ProviderInfo = ProvidersResponse["providers"][number];

/** One row of placeholder cards while the models load. */
const PLACEHOLDERS = [0, 1, 2, 3];

/** What each ensemble mode does; keyed by the modes the API accepts, so a new mode cannot go unlisted. */
const MODE_DETAILS: Readonly<Record<EnsembleMode, { icon: LucideIcon; text: string }>> = {
  majority_voting: {
    icon: Vote,
    text: "Every model votes for one of your answers and the answer with the most votes wins.",
  },
  weighted_voting: {
    icon: Scale,
    text: "Each vote counts with its model's weight, so the models you trust most, or that proved most accurate, count more.",
  },
  judge: {
    icon: Gavel,
    text: "The models answer first, then a judge model weighs their answers and reasons before it makes the final call.",
  },
  gossip: {
    icon: MessagesSquare,
    text: "The models see each other's votes and reasons over several rounds and can change their minds before the final vote.",
  },
};

/** The models this server is configured with, as GET /api/providers lists them. */
function useModels() {
  const { data, isError } = useQuery(providersQuery);
  return { models: data?.providers ?? null, failed: isError };
}

/** One figure of the hero; `value` null: not known yet (a placeholder, not a guess). */
function Highlight({ value, label }: { value: string | null; label: string }) {
  return (
    <div className="flex flex-col-reverse">
      <dt className="text-sm text-slate-400">{label}</dt>
      <dd className="text-2xl font-bold sm:text-3xl">
        {value ?? <span className="inline-block h-8 w-10 animate-pulse rounded bg-slate-700" aria-label="Loading" />}
      </dd>
    </div>
  );
}

function Hero({ models, failed }: { models: readonly ProviderInfo[] | null; failed: boolean }) {
  return (
    <header className="rounded-2xl bg-slate-900 px-6 py-12 text-white sm:px-12 sm:py-16">
      <p className="text-sm font-semibold tracking-wide text-brand-100 uppercase">Smart Decision API</p>
      <h1 className="mt-3 max-w-3xl text-4xl font-bold tracking-tight sm:text-5xl">
        The wisdom of many models in one API call
      </h1>
      <p className="mt-5 max-w-2xl text-lg text-slate-300">
        Send a question and the answers you allow. Leading AI models vote, and you get one final decision with the vote
        count, every model's answer and an explanation.
      </p>
      <div className="mt-8 flex flex-col gap-3 sm:flex-row">
        <ButtonLink to="/console" size="lg">
          Try it in the Console
        </ButtonLink>
        <ButtonLink to="/developers" size="lg" variant="secondary">
          Read the Docs
        </ButtonLink>
      </div>
      <dl className="mt-10 grid grid-cols-3 gap-4 border-t border-slate-700 pt-8">
        <Highlight value={models ? String(models.length) : failed ? "—" : null} label={models?.length === 1 ? "model" : "models"} />
        <Highlight value={String(ENSEMBLE_MODES.length)} label="ensemble modes" />
        <Highlight value="99.9%" label="uptime" />
      </dl>
    </header>
  );
}

function Models({ models, failed }: { models: readonly ProviderInfo[] | null; failed: boolean }) {
  return (
    <section aria-labelledby="models-title" className="space-y-6" aria-busy={models === null && !failed}>
      <div>
        <h2 id="models-title" className="text-3xl font-bold tracking-tight text-slate-900">
          {models ? `${models.length} ${models.length === 1 ? "model" : "models"}, one decision` : "Models, one decision"}
        </h2>
        <p className="mt-2 max-w-2xl text-slate-600">Pick the models that fit your question, your budget and your latency.</p>
      </div>
      {failed ? (
        <p className="text-slate-600">The list of models could not be loaded. Please reload the page.</p>
      ) : (
        <ul className="grid grid-cols-2 gap-4 md:grid-cols-4">
          {models
            ? models.map((model) => (
                <li key={model.id}>
                  <Card className="h-full p-4">
                    <h3 className="font-semibold break-words text-slate-900">{model.label}</h3>
                    <p className="mt-1 font-mono text-xs break-words text-slate-500">
                      {configuredModelVersion(model)}
                    </p>
                  </Card>
                </li>
              ))
            : PLACEHOLDERS.map((n) => (
                <li key={n} aria-hidden>
                  <div className="h-20 animate-pulse rounded-xl bg-slate-100" />
                </li>
              ))}
        </ul>
      )}
    </section>
  );
}

function ModeCard({ mode }: { mode: EnsembleMode }) {
  const { icon: Icon, text } = MODE_DETAILS[mode];
  return (
    <Card className="h-full">
      <div className="flex items-center justify-between gap-2">
        <span aria-hidden className="grid size-10 place-items-center rounded-lg bg-brand-50 text-brand-600">
          <Icon className="size-5" />
        </span>
        {mode === DEFAULT_ENSEMBLE_MODE ? (
          <span className="rounded-full bg-emerald-100 px-2.5 py-0.5 text-xs font-medium text-emerald-800">Default</span>
        ) : null}
      </div>
      <h3 className="mt-4 text-lg font-semibold text-slate-900">{ENSEMBLE_MODE_LABELS[mode]}</h3>
      <p className="mt-2 text-sm text-slate-600">{text}</p>
    </Card>
  );
}

function EnsembleModes() {
  return (
    <section aria-labelledby="modes-title" className="space-y-6">
      <div>
        <h2 id="modes-title" className="text-3xl font-bold tracking-tight text-slate-900">
          {ENSEMBLE_MODES.length} ensemble modes
        </h2>
        <p className="mt-2 max-w-2xl text-slate-600">Choose how the votes become one decision.</p>
      </div>
      <ul className="grid gap-4 md:grid-cols-2 lg:grid-cols-4">
        {ENSEMBLE_MODES.map((mode) => (
          <li key={mode}>
            <ModeCard mode={mode} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function ContactSales() {
  return (
    <section aria-labelledby="sales-title">
      <div className="flex flex-col items-start gap-6 rounded-xl border border-brand-100 bg-brand-50 p-6 sm:p-10 md:flex-row md:items-center md:justify-between">
        <div>
          <h2 id="sales-title" className="text-2xl font-bold tracking-tight text-slate-900">
            Built for production
          </h2>
          <p className="mt-2 max-w-xl text-slate-600">
            99.9% uptime, per-model retries and a decision even when one model fails. Need higher limits or your own
            models? Let's talk.
          </p>
        </div>
        <a href={mailto(CONTACT.sales, "Smart Decision API")} className={buttonClass("primary", "lg", "shrink-0")}>
          <Mail className="size-4" aria-hidden /> Contact Sales
        </a>
      </div>
    </section>
  );
}

export default function SdApiPage() {
  const { models, failed } = useModels();
  return (
    <Page title="Smart Decision API" className="space-y-16">
      <Hero models={models} failed={failed} />
      <Models models={models} failed={failed} />
      <EnsembleModes />
      <ContactSales />
    </Page>
  );
}
