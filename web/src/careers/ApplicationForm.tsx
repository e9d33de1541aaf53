import { Info, LoaderCircle } from "lucide-react";
import { useEffect, useRef } from "react";
import { JOB_APPLICATION_LIMITS as LIMITS } from "@sd/contracts";
import { Button } from "../ui/button";
import { AccomplishmentField } from "./AccomplishmentField";
import { ApplicationTextField } from "./ApplicationTextField";
import { ResumeField } from "./ResumeField";
import { useApplicationForm, type ApplicationTarget } from "./use-application-form";

/** The application form: checked on submit, sent as multipart, then back to /careers after a success. */
export function ApplicationForm({ target }: { target: ApplicationTarget }) {
  const form = useApplicationForm(target);
  const element = useRef<HTMLFormElement>(null);
  const busy = form.status !== "idle";

  // After a refused submit, take keyboard and screen-reader users to the first field in error.
  useEffect(() => {
    if (form.refusals > 0) element.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [form.refusals]);

  return (
    <form
      ref={element}
      noValidate
      aria-label="Job application"
      onSubmit={(event) => {
        event.preventDefault();
        void form.submit();
      }}
    >
      <p className="mb-5 text-sm text-slate-500">
        Fields marked <span className="text-red-600">*</span> are required.
      </p>
      <fieldset disabled={busy} className="min-w-0 space-y-5">
        <legend className="sr-only">Your details</legend>
        <div className="grid gap-5 sm:grid-cols-2">
          <ApplicationTextField
            label="Full Name"
            autoComplete="name"
            placeholder="Jane Doe"
            maxLength={LIMITS.maxNameLength}
            value={form.values.name}
            error={form.errors.name}
            onValueChange={(value) => form.setField("name", value)}
          />
          <ApplicationTextField
            label="Email Address"
            type="email"
            autoComplete="email"
            placeholder="jane@example.com"
            maxLength={LIMITS.maxEmailLength}
            value={form.values.email}
            error={form.errors.email}
            onValueChange={(value) => form.setField("email", value)}
          />
          <ApplicationTextField
            label="Phone Number"
            type="tel"
            autoComplete="tel"
            placeholder="+1 (650) 555-0100"
            maxLength={LIMITS.maxPhoneLength}
            value={form.values.phone}
            error={form.errors.phone}
            onValueChange={(value) => form.setField("phone", value)}
          />
          <ApplicationTextField
            label="LinkedIn Profile"
            type="url"
            autoComplete="url"
            placeholder="https://www.linkedin.com/in/jane-doe"
            maxLength={LIMITS.maxLinkedinLength}
            value={form.values.linkedin}
            error={form.errors.linkedin}
            onValueChange={(value) => form.setField("linkedin", value)}
          />
        </div>
        <AccomplishmentField
          value={form.values.accomplishment}
          error={form.errors.accomplishment}
          onValueChange={(value) => form.setField("accomplishment", value)}
        />
        <ResumeField resume={form.resume} error={form.errors.resume} onChoose={form.chooseResume} onRemove={form.removeResume} />
      </fieldset>

      <Button type="submit" size="lg" disabled={busy} className="mt-8 w-full">
        {form.status === "submitting" ? (
          <>
            <LoaderCircle aria-hidden className="size-5 animate-spin" />
            Processing...
          </>
        ) : (
          "Submit Application"
        )}
      </Button>
      <p className="mt-4 flex items-start gap-2 text-sm text-slate-600">
        <Info aria-hidden className="mt-0.5 size-4 shrink-0 text-brand-600" />
        <span>Your application goes straight to our hiring team. We review every application and get back to you within 2-3 business days.</span>
      </p>
    </form>
  );
}
