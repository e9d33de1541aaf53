import { Check, Copy } from "lucide-react";
import type { CodeSampleSpec } from "./code-samples";
import { useCopyToClipboard } from "./use-copy-to-clipboard";

const LANGUAGE_NAMES: Record<CodeSampleSpec["language"], string> = {
  python: "Python",
  javascript: "JavaScript",
  typescript: "TypeScript",
  bash: "Shell",
  json: "JSON",
};

/** The copy button of a code block; its icon confirms a copy for two seconds. */
function CopyButton({ text, what }: { text: string; what: string }) {
  const { copied, copy } = useCopyToClipboard();
  return (
    <button
      type="button"
      onClick={() => void copy(text)}
      aria-label={copied ? `Copied: ${what}` : `Copy code: ${what}`}
      className="inline-flex size-8 shrink-0 items-center justify-center rounded-md text-slate-300 hover:bg-slate-700 hover:text-white"
    >
      {copied ? <Check className="size-4 text-emerald-400" aria-hidden /> : <Copy className="size-4" aria-hidden />}
    </button>
  );
}

/** A titled, horizontally scrollable code block with a copy-to-clipboard button. */
export function CodeSample({ sample, showHeading = true }: { sample: CodeSampleSpec; showHeading?: boolean }) {
  const titleId = `sample-${sample.id}`;
  return (
    <section aria-labelledby={titleId} className="min-w-0 space-y-2" data-sample={sample.id}>
      {showHeading ? (
        <div>
          <h3 id={titleId} className="text-base font-semibold text-slate-900">
            {sample.title}
          </h3>
          <p className="text-sm text-slate-600">{sample.description}</p>
        </div>
      ) : null}
      <div className="overflow-hidden rounded-lg bg-slate-900 text-slate-100">
        <div className="flex items-center justify-between gap-2 border-b border-slate-700 py-1 pr-1 pl-4">
          <span className="text-xs font-medium tracking-wide text-slate-400 uppercase" id={showHeading ? undefined : titleId}>
            {showHeading ? LANGUAGE_NAMES[sample.language] : `${sample.title} (${LANGUAGE_NAMES[sample.language]})`}
          </span>
          <CopyButton text={sample.code} what={`${sample.title} (${LANGUAGE_NAMES[sample.language]})`} />
        </div>
        <pre tabIndex={0} aria-label={`${sample.title}, ${LANGUAGE_NAMES[sample.language]} code`} className="overflow-x-auto p-4 text-[13px] leading-relaxed [overflow-wrap:normal]">
          <code>{sample.code}</code>
        </pre>
      </div>
    </section>
  );
}
