import { LIMITS } from "@sd/contracts";
import { Field, Textarea } from "../ui/field";

export function QuestionField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  return (
    <Field label="Question">
      {({ id, describedBy }) => (
        <Textarea
          id={id}
          aria-describedby={describedBy}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          maxLength={LIMITS.maxQuestionLength}
          rows={4}
          placeholder="e.g. Should we release the new version on Friday?"
        />
      )}
    </Field>
  );
}
