import { FileText, X } from "lucide-react";
import { useRef } from "react";
import { Button } from "../ui/button";
import { Field } from "../ui/field";
import { RESUME_ACCEPT } from "./application-form";

const sizeLabel = (bytes: number): string => (bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / (1024 * 1024)).toFixed(1)} MB`);

interface ResumeFieldProps {
  resume: File | null;
  error?: string;
  /** Checks the chosen file; false when it was refused (the input is then emptied). */
  onChoose: (file: File | null) => boolean;
  onRemove: () => void;
}

/** The optional resume: one PDF of at most 10MB, checked as soon as it is chosen. */
export function ResumeField({ resume, error, onChoose, onRemove }: ResumeFieldProps) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <Field label="Resume (optional)" error={error} hint="PDF only, up to 10MB">
      {({ id, describedBy, invalid }) => (
        <div className="space-y-2">
          <input
            ref={input}
            id={id}
            type="file"
            accept={RESUME_ACCEPT}
            aria-invalid={invalid}
            aria-describedby={describedBy}
            onChange={(event) => {
              if (!onChoose(event.target.files?.[0] ?? null)) event.target.value = "";
            }}
            className="block w-full scroll-mt-24 cursor-pointer rounded-lg border border-dashed border-slate-300 bg-slate-50 p-2 text-sm text-slate-600 file:mr-3 file:cursor-pointer file:rounded-md file:border-0 file:bg-brand-50 file:px-3 file:py-1.5 file:font-medium file:text-brand-700 hover:file:bg-brand-100 aria-[invalid=true]:border-red-500"
          />
          {resume ? (
            <div className="flex items-center gap-2 rounded-lg border border-slate-200 px-3 py-2 text-sm">
              <FileText aria-hidden className="size-4 shrink-0 text-brand-600" />
              <span className="min-w-0 flex-1 truncate" title={resume.name}>
                {resume.name}
              </span>
              <span className="shrink-0 text-slate-500">{sizeLabel(resume.size)}</span>
              <Button
                variant="ghost"
                size="sm"
                aria-label={`Remove ${resume.name}`}
                onClick={() => {
                  onRemove();
                  if (input.current) input.current.value = "";
                }}
              >
                <X aria-hidden className="size-4" />
              </Button>
            </div>
          ) : null}
        </div>
      )}
    </Field>
  );
}
