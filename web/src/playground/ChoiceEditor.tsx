import { LIMITS } from "@sd/contracts";
import { Plus, X } from "lucide-react";
import { useState } from "react";
import { Button } from "../ui/button";
import { Field, Input } from "../ui/field";

interface ChoiceEditorProps {
  choices: readonly string[];
  onAdd: (choice: string) => void;
  onRemove: (choice: string) => void;
}

/** The allowed answers: an input with an Add button (Enter also adds) and removable chips. */
export function ChoiceEditor({ choices, onAdd, onRemove }: ChoiceEditorProps) {
  const [draft, setDraft] = useState("");
  const add = () => {
    onAdd(draft);
    setDraft("");
  };
  return (
    <div className="space-y-3">
      <Field label="Choices" hint={`The answers the models may give; at least ${LIMITS.minCategories}.`}>
        {({ id, describedBy }) => (
          <div className="flex gap-2">
            <Input
              id={id}
              aria-describedby={describedBy}
              value={draft}
              maxLength={LIMITS.maxCategoryLength}
              placeholder="e.g. Yes"
              onChange={(event) => setDraft(event.target.value)}
              onKeyDown={(event) => {
                if (event.key !== "Enter" || event.nativeEvent.isComposing) return;
                event.preventDefault(); // Enter adds the choice; it never submits the form.
                add();
              }}
            />
            <Button variant="secondary" onClick={add} className="shrink-0">
              <Plus className="size-4" aria-hidden />
              Add
            </Button>
          </div>
        )}
      </Field>
      {choices.length > 0 ? (
        <ul aria-label="Your choices" className="flex flex-wrap gap-2">
          {choices.map((choice) => (
            <li key={choice} className="inline-flex max-w-full items-center gap-1 rounded-full bg-brand-50 py-1 pr-1 pl-3 text-sm text-brand-700">
              <span className="min-w-0">{choice}</span>
              <button
                type="button"
                onClick={() => onRemove(choice)}
                aria-label={`Remove ${choice}`}
                className="shrink-0 rounded-full p-1 hover:bg-brand-100"
              >
                <X className="size-3.5" aria-hidden />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
