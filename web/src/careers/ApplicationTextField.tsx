import type { InputHTMLAttributes } from "react";
import { Field, Input } from "../ui/field";
import { RequiredLabel } from "./RequiredLabel";

interface ApplicationTextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, "onChange" | "value" | "id"> {
  label: string;
  value: string;
  error?: string;
  onValueChange: (value: string) => void;
}

/** A required one-line field of the application form (scroll-mt: focusing it keeps it clear of the sticky header). */
export function ApplicationTextField({ label, value, error, onValueChange, ...input }: ApplicationTextFieldProps) {
  return (
    <Field label={<RequiredLabel>{label}</RequiredLabel>} error={error}>
      {({ id, describedBy, invalid }) => (
        <Input
          {...input}
          id={id}
          className="scroll-mt-24"
          value={value}
          aria-required="true"
          aria-invalid={invalid}
          aria-describedby={describedBy}
          onChange={(event) => onValueChange(event.target.value)}
        />
      )}
    </Field>
  );
}
