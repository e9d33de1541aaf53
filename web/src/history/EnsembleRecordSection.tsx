import type { EnsembleRecord, RoundAnswer } from "@sd/contracts";
import { useId, type ReactNode } from "react";
import { DetailSection } from "./DetailSection";
import { modelName, responseText } from "./format";

type Labels = ReadonlyMap<string, string>;

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-semibold tracking-wide text-slate-500 uppercase">{term}</dt>
      <dd className="mt-0.5 text-sm text-slate-800">{children}</dd>
    </div>
  );
}

function Part({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <div role="group" aria-labelledby={id} className="min-w-0 space-y-2">
      <h3 id={id} className="text-sm font-semibold text-slate-700">
        {title}
      </h3>
      {children}
    </div>
  );
}

const answerText = (answer: RoundAnswer) => (answer.category !== null ? responseText(answer.category) : `Failed${answer.error ? `: ${answer.error}` : ""}`);

/** Gossip: every round's answers, model by model. */
function Rounds({ rounds, labels }: { rounds: EnsembleRecord["rounds"]; labels: Labels }) {
  return (
    <ol className="space-y-3">
      {rounds.map((answers, index) => (
        <li key={index} aria-label={`Round ${index + 1}`} className="rounded-lg border border-slate-200 p-3">
          <p className="mb-1 text-xs font-semibold tracking-wide text-slate-500 uppercase">Round {index + 1}</p>
          <ul className="space-y-1 text-sm">
            {answers.map((answer) => (
              <li key={answer.provider} className="[overflow-wrap:anywhere]">
                <span className="font-medium text-slate-900">{modelName(answer.provider, labels)}:</span>{" "}
                <span className={answer.category === null ? "text-red-700" : "text-slate-800"}>{answerText(answer)}</span>
                {answer.category !== null && answer.reason ? <span className="text-slate-500"> · {answer.reason}</span> : null}
              </li>
            ))}
          </ul>
        </li>
      ))}
    </ol>
  );
}

function JudgeVerdict({ judge, labels }: { judge: NonNullable<EnsembleRecord["judge"]>; labels: Labels }) {
  const name = modelName(judge.provider, labels);
  if (judge.fallback || judge.category === null) {
    return (
      <p className="text-sm text-slate-800 [overflow-wrap:anywhere]">
        <span className="font-medium">{name}</span> failed{judge.error ? ` (${judge.error})` : ""}: the majority vote decided.
      </p>
    );
  }
  return (
    <p className="text-sm text-slate-800 [overflow-wrap:anywhere]">
      <span className="font-medium">{name}</span> chose <span className="font-semibold">{judge.category}</span>
      {judge.reason ? `: ${judge.reason}` : "."}
    </p>
  );
}

/**
 * How the decision's ensemble decided (issue 10): the panel, the weights of a weighted
 * vote, every gossip round, the judge's verdict or its fallback, and what early quorum skipped and saved.
 */
export function EnsembleRecordSection({ record, labels }: { record: EnsembleRecord; labels: Labels }) {
  const names = (ids: readonly string[]) => ids.map((id) => modelName(id, labels)).join(", ");
  const weights = Object.entries(record.weights);
  return (
    <DetailSection title="Ensemble">
      <div className="space-y-5">
        {/* The mode is in Decision Metadata: listed once. */}
        <dl>
          <Fact term="Panel">{names(record.panel)}</Fact>
        </dl>
        {weights.length > 0 ? (
          <Part title="Weights">
            <p className="text-xs text-slate-500">The weight each counted vote had.</p>
            <ul className="grid gap-1 text-sm sm:grid-cols-2">
              {weights.map(([id, weight]) => (
                <li key={id} className="flex justify-between gap-3 rounded-md bg-slate-50 px-3 py-1">
                  <span className="min-w-0 text-slate-800">{modelName(id, labels)}</span>
                  <span className="font-mono text-slate-900">{weight.toFixed(2)}</span>
                </li>
              ))}
            </ul>
          </Part>
        ) : null}
        {record.mode === "gossip" ? (
          <Part title="Rounds">
            <Rounds rounds={record.rounds} labels={labels} />
          </Part>
        ) : null}
        {record.judge ? (
          <Part title="Judge">
            <JudgeVerdict judge={record.judge} labels={labels} />
          </Part>
        ) : null}
        {record.early_quorum ? (
          <Part title="Early quorum">
            <dl className="grid gap-3 sm:grid-cols-2">
              <Fact term="Skipped">{record.early_quorum.skipped.length > 0 ? names(record.early_quorum.skipped) : "None"}</Fact>
              <Fact term="Calls saved">{String(record.early_quorum.calls_saved)}</Fact>
            </dl>
          </Part>
        ) : null}
      </div>
    </DetailSection>
  );
}
