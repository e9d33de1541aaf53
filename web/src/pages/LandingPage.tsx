import { DEFAULT_ENSEMBLE_MODE, ENSEMBLE_MODE_LABELS } from "@sd/contracts";
import { ArrowRight, BookOpen, Code2, History, ImageIcon, LifeBuoy, ListChecks, Radio, Sparkles, Vote, type LucideIcon } from "lucide-react";
import { useSignIn } from "../auth/sign-in-context";
import { CONTACT, mailto } from "../content/contact";
import { Page } from "../layout/Page";
import { ActionCard } from "../site/ActionCard";
import { CodeSample } from "../site/CodeSample";
import { quickStartSample } from "../site/code-samples";
import { WaitlistForm } from "../site/WaitlistForm";
import { Button, ButtonLink } from "../ui/button";
import { Card } from "../ui/card";
import { FeatureCard } from "../ui/feature-card";

const FEATURES: { icon: LucideIcon; title: string; text: string }[] = [
  {
    icon: Vote,
    title: "Several models, one answer",
    // No model names or counts here: /sd-api lists the configured ones.
    text: `Every question goes to several AI models at once. The ensemble mode you pick (${ENSEMBLE_MODE_LABELS[DEFAULT_ENSEMBLE_MODE].toLowerCase()} by default) turns their votes into one final decision.`,
  },
  {
    icon: ListChecks,
    title: "Answers you define",
    text: "You list the allowed answers. Each model must pick one of them, so the votes are always comparable.",
  },
  {
    icon: Radio,
    title: "Watch the votes arrive",
    text: "Each model's vote, with its confidence, appears live the moment it is cast.",
  },
  {
    icon: Sparkles,
    title: "Explained, not just decided",
    text: "'Why this decision?' sums up the vote and every model's one-sentence reason.",
  },
  {
    icon: ImageIcon,
    title: "Images welcome",
    text: "Attach up to 3 images to a question and the models take them into account.",
  },
  {
    icon: History,
    title: "History and API",
    text: "Sign in to keep your decision history, or call the same ensemble from your own code.",
  },
];

function Hero() {
  return (
    <section aria-labelledby="hero-title" className="rounded-2xl bg-gradient-to-br from-brand-50 via-white to-slate-50 px-6 py-12 text-center ring-1 ring-slate-200 sm:px-12 sm:py-20">
      <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase">AI ensemble decisions</p>
      <h1 id="hero-title" className="mx-auto mt-3 max-w-3xl text-4xl font-bold tracking-tight text-slate-900 sm:text-5xl">
        Better decisions from many AI models, not just one
      </h1>
      <p className="mx-auto mt-5 max-w-2xl text-lg text-slate-600">
        Ask one question with the answers you allow. Several leading models each vote with a reason and a confidence, and
        Smart Decision combines their votes into one decision you can explain.
      </p>
      <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
        {/* Start opens the playground itself: the console is only a menu of cards in front of it. */}
        <ButtonLink to="/playground" size="lg">
          Start <ArrowRight className="size-4" aria-hidden />
        </ButtonLink>
        <ButtonLink to="/sd-api" size="lg" variant="secondary">
          Learn More
        </ButtonLink>
      </div>
    </section>
  );
}

function Features() {
  return (
    <section aria-labelledby="features-title" className="space-y-8">
      <div className="text-center">
        <h2 id="features-title" className="text-3xl font-bold tracking-tight text-slate-900">
          Why ask an ensemble?
        </h2>
        <p className="mx-auto mt-3 max-w-2xl text-slate-600">
          One model can be confidently wrong. Several models voting on the same question catch each other's mistakes.
        </p>
      </div>
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {FEATURES.map(({ icon, title, text }) => (
          <li key={title}>
            <FeatureCard icon={icon} title={title} text={text} />
          </li>
        ))}
      </ul>
    </section>
  );
}

function ApiSample() {
  const { openSignIn } = useSignIn();
  return (
    <section aria-labelledby="api-title" className="grid items-center gap-8 lg:grid-cols-2">
      <div className="min-w-0 space-y-4">
        <h2 id="api-title" className="text-3xl font-bold tracking-tight text-slate-900">
          One request, a whole ensemble
        </h2>
        <p className="text-slate-600">
          Send a question and its allowed answers to the REST API. The answer holds the final decision, the vote count per
          answer, every model's response and the explanation.
        </p>
        <Button size="lg" onClick={openSignIn}>
          Get started
        </Button>
      </div>
      <div className="min-w-0">
        <CodeSample sample={quickStartSample(window.location.origin)} showHeading={false} />
      </div>
    </section>
  );
}

function Documentation() {
  return (
    <section aria-labelledby="docs-title" className="space-y-6">
      <h2 id="docs-title" className="text-3xl font-bold tracking-tight text-slate-900">
        Documentation
      </h2>
      <div className="grid gap-4 sm:grid-cols-3">
        <ActionCard
          headingLevel={3}
          icon={BookOpen}
          title="Developer guide"
          description="Samples in Python, JavaScript, TypeScript and plain HTTP."
          action={{ to: "/developers" }}
        />
        <ActionCard
          headingLevel={3}
          icon={Code2}
          title="API overview"
          description="Models, ensemble modes and what the API offers."
          action={{ to: "/sd-api" }}
        />
        <ActionCard
          headingLevel={3}
          icon={LifeBuoy}
          title="Email support"
          description={`Questions about the API? Write to ${CONTACT.support}.`}
          action={{ href: mailto(CONTACT.support, "Smart Decision API support") }}
        />
      </div>
    </section>
  );
}

function Waitlist() {
  return (
    <section aria-labelledby="waitlist-title">
      <Card className="mx-auto max-w-2xl p-6 sm:p-10">
        <h2 id="waitlist-title" className="text-2xl font-bold tracking-tight text-slate-900">
          Join the waitlist
        </h2>
        <p className="mt-2 mb-6 text-slate-600">
          API keys are yours as soon as you sign in. Join the waitlist to hear first about higher limits, new models and new
          ensemble modes.
        </p>
        <WaitlistForm />
      </Card>
    </section>
  );
}

export default function LandingPage() {
  return (
    <Page title="AI ensemble decisions" className="space-y-20">
      <Hero />
      <Features />
      <ApiSample />
      <Documentation />
      <Waitlist />
    </Page>
  );
}
