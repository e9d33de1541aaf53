import { Gavel, Mail, MessagesSquare, Scale, type LucideIcon } from "lucide-react";
import { CONTACT, mailto } from "../content/contact";
import { Page } from "../layout/Page";
import { buttonClass, ButtonLink } from "../ui/button";
import { Card } from "../ui/card";

/** The models the API is marketed with. */
const MODELS = [
  { name: "GPT-4o", vendor: "OpenAI" },
  { name: "Gemini 2.5 Pro", vendor: "Google" },
  { name: "Claude 3 Haiku", vendor: "Anthropic" },
  { name: "DeepSeek", vendor: "DeepSeek" },
  { name: "Llama 3.1", vendor: "Meta" },
  { name: "Grok", vendor: "xAI" },
  { name: "GPT-5", vendor: "OpenAI" },
  { name: "Gemini 2.5 Flash", vendor: "Google" },
] as const;

/** The ensemble modes. */
const ENSEMBLE_MODES: { icon: LucideIcon; name: string; text: string; isDefault?: boolean }[] = [
  {
    icon: Scale,
    name: "Majority vote",
    text: "Every model votes for one of your answers and the answer with the most votes wins. Votes can be weighted, so the models you trust most count more.",
    isDefault: true,
  },
  {
    icon: Gavel,
    name: "Judge model",
    text: "The models answer first, then a judge model weighs their answers and reasons before it makes the final call.",
  },
  {
    icon: MessagesSquare,
    name: "Gossip model",
    text: "The models see each other's votes and reasons over several rounds and can change their minds before the final vote.",
  },
];

const HIGHLIGHTS = [
  { value: "8", label: "leading models" },
  { value: "3", label: "ensemble modes" },
  { value: "99.9%", label: "uptime" },
] as const;

function Hero() {
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
        {HIGHLIGHTS.map((item) => (
          <div key={item.label} className="flex flex-col-reverse">
            <dt className="text-sm text-slate-400">{item.label}</dt>
            <dd className="text-2xl font-bold sm:text-3xl">{item.value}</dd>
          </div>
        ))}
      </dl>
    </header>
  );
}

function Models() {
  return (
    <section aria-labelledby="models-title" className="space-y-6">
      <div>
        <h2 id="models-title" className="text-3xl font-bold tracking-tight text-slate-900">
          8 models, one decision
        </h2>
        <p className="mt-2 max-w-2xl text-slate-600">Pick the models that fit your question, your budget and your latency.</p>
      </div>
      <ul className="grid grid-cols-2 gap-4 md:grid-cols-4">
        {MODELS.map((model) => (
          <li key={model.name}>
            <Card className="h-full p-4">
              <h3 className="font-semibold text-slate-900">{model.name}</h3>
              <p className="text-sm text-slate-500">{model.vendor}</p>
            </Card>
          </li>
        ))}
      </ul>
    </section>
  );
}

function EnsembleModes() {
  return (
    <section aria-labelledby="modes-title" className="space-y-6">
      <div>
        <h2 id="modes-title" className="text-3xl font-bold tracking-tight text-slate-900">
          3 ensemble modes
        </h2>
        <p className="mt-2 max-w-2xl text-slate-600">Choose how the votes become one decision.</p>
      </div>
      <ul className="grid gap-4 md:grid-cols-3">
        {ENSEMBLE_MODES.map(({ icon: Icon, name, text, isDefault }) => (
          <li key={name}>
            <Card className="h-full">
              <div className="flex items-center justify-between gap-2">
                <span aria-hidden className="grid size-10 place-items-center rounded-lg bg-brand-50 text-brand-600">
                  <Icon className="size-5" />
                </span>
                {isDefault ? (
                  <span className="rounded-full bg-emerald-100 px-2.5 py-0.5 text-xs font-medium text-emerald-800">Default</span>
                ) : null}
              </div>
              <h3 className="mt-4 text-lg font-semibold text-slate-900">{name}</h3>
              <p className="mt-2 text-sm text-slate-600">{text}</p>
            </Card>
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
  return (
    <Page title="Smart Decision API" className="space-y-16">
      <Hero />
      <Models />
      <EnsembleModes />
      <ContactSales />
    </Page>
  );
}
