import { JOB_APPLICATION_LIMITS } from "@sd/contracts";
import { cn } from "../ui/cn";
import { Field, Textarea } from "../ui/field";
import { accomplishmentCounter } from "./application-form";
import { RequiredLabel } from "./RequiredLabel";

interface AccomplishmentFieldProps {
  value: string;
  error?: string;
  onValueChange: (value: string) => void;
}

/** 'Most Incredible Accomplishment': at most 100 characters, with a live counter that turns orange above 90. */
export function AccomplishmentField({ value, error, onValueChange }: AccomplishmentFieldProps) {
  const counter = accomplishmentCounter(value);
  return (
    <Field
      label={<RequiredLabel>Most Incredible Accomplishment</RequiredLabel>}
      error={error}
      hint={<span className={cn(counter.warning && "font-medium text-orange-600")}>{counter.label}</span>}
    >
      {({ id, describedBy, invalid }) => (
        <Textarea
          id={id}
          className="scroll-mt-24"
          value={value}
          rows={3}
          maxLength={JOB_APPLICATION_LIMITS.maxAccomplishmentLength}
          placeholder="In one or two sentences, tell us about something you are proud of."
          aria-required="true"
          aria-invalid={invalid}
          aria-describedby={describedBy}
          onChange={(event) => onValueChange(event.target.value)}
        />
      )}
    </Field>
  );
}
