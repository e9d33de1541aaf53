import type { Suggestion } from "@sd/contracts";
import { History, LoaderCircle, Vote } from "lucide-react";
import { useId, useMemo, useRef, useState, type FormEvent } from "react";
import { Page } from "../layout/Page";
import { AiSuggestions } from "../playground/AiSuggestions";
import { ChoiceEditor } from "../playground/ChoiceEditor";
import { addChoice, choicesProblem, newSuggestions, questionProblem, removeChoice } from "../playground/choices";
import { EnsembleControls } from "../playground/EnsembleControls";
import { chosenJudge, chosenPanel, DEFAULT_ENSEMBLE_CHOICE, ensembleProblem, ensembleRequestOptions, type EnsembleChoice } from "../playground/ensemble-options";
import { FinalDecisionCard } from "../playground/FinalDecisionCard";
import { ImageAttachmentsField } from "../playground/ImageAttachmentsField";
import { INPUT_TOAST, useDismissWhenValid } from "../playground/input-toasts";
import { liveRows } from "../playground/live-rows";
import { ModelResponses } from "../playground/ModelResponses";
import { QuestionField } from "../playground/QuestionField";
import { formatWait } from "../playground/refusal";
import { RefusalNotice } from "../playground/RefusalNotice";
import { SimulatedBanner } from "../playground/SimulatedBanner";
import { useDecisionRun } from "../playground/useDecisionRun";
import { useImageAttachments } from "../playground/useImageAttachments";
import { usePlaygroundModels } from "../playground/usePlaygroundModels";
import { useSecondsLeft } from "../playground/useSecondsLeft";
import { useSuggestions } from "../playground/useSuggestions";
import { usageTotals } from "../playground/usage-totals";
import { Button, ButtonLink } from "../ui/button";
import { Card } from "../ui/card";
import { toast } from "../ui/toast";

const PANEL_REQUIRED_TITLE = "Models required";

/** Brings the live results into view when they are below the fold (one column on small screens). */
function revealBelowFold(element: HTMLElement | null): void {
  if (!element || element.getBoundingClientRect().top < window.innerHeight * 0.6) return;
  const smooth = !window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  element.scrollIntoView({ behavior: smooth ? "smooth" : "auto", block: "start" });
}

/** /playground: ask the models a question with allowed answers and watch their votes arrive. */
export default function PlaygroundPage() {
  const catalog = usePlaygroundModels();
  const [question, setQuestion] = useState("");
  const [choices, setChoices] = useState<readonly string[]>([]);
  const [ensemble, setEnsemble] = useState<EnsembleChoice>(DEFAULT_ENSEMBLE_CHOICE);
  const attachments = useImageAttachments();
  const suggestions = useSuggestions();
  const decision = useDecisionRun();
  const results = useRef<HTMLDivElement>(null);
  const whyDisabledId = useId();

  const images = useMemo(() => attachments.images.map((image) => image.dataUrl), [attachments.images]);
  const running = decision.phase === "running";
  // After a refusal the server takes no decision before its Retry-After: the button waits with it.
  const waitSeconds = useSecondsLeft(decision.refusal?.retryAt ?? null);
  const waiting = decision.phase === "refused" && waitSeconds > 0;
  const questionIssue = questionProblem(question);
  const choicesIssue = choicesProblem(choices);
  const problem = questionIssue ?? choicesIssue;
  const panelProblem = ensembleProblem(ensemble, catalog);
  useDismissWhenValid(INPUT_TOAST.question, questionIssue === null);
  useDismissWhenValid(INPUT_TOAST.choices, choicesIssue === null);
  useDismissWhenValid(INPUT_TOAST.panel, panelProblem === null);
  const panel = chosenPanel(ensemble, catalog);
  const judge = ensemble.mode === "judge" ? chosenJudge(ensemble, catalog) : null;
  // The banner names the simulated models this decision would ask.
  const asked = new Set([...panel.map((model) => model.id), ...(judge ? [judge] : [])]);
  const simulated = catalog.models.filter((model) => model.simulated && asked.has(model.id));
  const rows = liveRows(catalog.models, decision, { panel, mode: ensemble.mode, judge });

  const addCategory = (raw: string) => {
    const next = addChoice(choices, raw);
    if (next === choices) return;
    setChoices(next);
    suggestions.clear();
  };
  const pickSuggestion = ({ category }: Suggestion) => {
    setChoices((current) => addChoice(current, category));
    suggestions.take(category);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (running || waiting || attachments.processing > 0) return;
    if (problem) {
      toast.error(problem.title, problem.description, { id: questionIssue ? INPUT_TOAST.question : INPUT_TOAST.choices });
      return;
    }
    if (panelProblem) {
      toast.error(PANEL_REQUIRED_TITLE, panelProblem, { id: INPUT_TOAST.panel });
      return;
    }
    void decision.submit(
      { question, categories: choices, images },
      { mode: ensemble.mode, panel: panel.map((model) => model.id), judge, options: ensembleRequestOptions(ensemble, catalog) },
    );
    revealBelowFold(results.current);
  };

  return (
    <Page title="Playground">
      <div className="mb-6 flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0 space-y-1">
          <h1 className="text-3xl font-bold">Playground</h1>
          <p className="text-slate-600">Ask several AI models one question with the answers you allow; their votes decide.</p>
        </div>
        <ButtonLink to="/dashboard" variant="secondary">
          <History className="size-4" aria-hidden />
          View History
        </ButtonLink>
      </div>
      <SimulatedBanner simulated={simulated} />
      <div className="grid items-start gap-6 lg:grid-cols-2">
        <Card className="p-4 sm:p-6">
          <h2 className="mb-4 text-lg font-semibold">Your Question</h2>
          <form onSubmit={submit} className="space-y-6" noValidate>
            <QuestionField value={question} onChange={setQuestion} />
            <ImageAttachmentsField
              images={attachments.images}
              processing={attachments.processing}
              onAdd={(files) => void attachments.add(files)}
              onRemove={attachments.remove}
            />
            <div className="space-y-3">
              <ChoiceEditor choices={choices} onAdd={addCategory} onRemove={(choice) => setChoices((c) => removeChoice(c, choice))} />
              <AiSuggestions
                suggestions={newSuggestions(suggestions.suggestions, choices)}
                loading={suggestions.loading}
                onRequest={() => void suggestions.fetch({ question, images, choices })}
                onPick={pickSuggestion}
              />
            </div>
            <EnsembleControls choice={ensemble} catalog={catalog} onChange={setEnsemble} />
            <div className="space-y-2">
              <Button
                type="submit"
                size="lg"
                className="w-full"
                disabled={problem !== null || panelProblem !== null || running || waiting || attachments.processing > 0}
                aria-busy={running}
                aria-describedby={panelProblem ? whyDisabledId : undefined}
              >
                {running ? <LoaderCircle className="size-5 animate-spin" aria-hidden /> : <Vote className="size-5" aria-hidden />}
                Get AI Decision
                {waiting ? <span className="tabular-nums">in {formatWait(waitSeconds)}</span> : null}
              </Button>
              {panelProblem ? (
                <p id={whyDisabledId} className="text-center text-sm text-red-600">
                  {panelProblem}
                </p>
              ) : null}
            </div>
          </form>
        </Card>
        <div ref={results} className="scroll-mt-20 space-y-6">
          {decision.refusal ? <RefusalNotice refusal={decision.refusal} secondsLeft={waitSeconds} /> : null}
          <ModelResponses rows={rows} />
          {decision.result ? <FinalDecisionCard result={decision.result} totals={usageTotals(rows)} /> : null}
        </div>
      </div>
    </Page>
  );
}
