import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { EMAIL_REQUIRED, trimmedEmail } from "../lib/validation";
import { Button } from "../ui/button";
import { Field, Input } from "../ui/field";
import { toast } from "../ui/toast";
import { joinWaitlist } from "./waitlist";

/**
 * The waitlist sign-up (used on / and /contact): one required email field and 'Request access'.
 * The email is trimmed; a blank one gets the 'Email required' toast without a request.
 */
export function WaitlistForm() {
  const [email, setEmail] = useState("");
  const request = useMutation({
    mutationFn: (value: string) => joinWaitlist(value),
    onSuccess: (result) => {
      if (result.ok) {
        toast.success("Success!", result.message);
        setEmail("");
      } else {
        toast.error("Error", result.message);
      }
    },
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const field = event.currentTarget.elements.namedItem("email");
    const value = trimmedEmail(email);
    if (value === null) {
      toast.error(EMAIL_REQUIRED.title, EMAIL_REQUIRED.description);
      if (field instanceof HTMLInputElement) field.focus();
      return;
    }
    request.mutate(value);
  };

  return (
    // noValidate: the specification's toast replaces the browser's own bubble for a blank email.
    <form onSubmit={submit} noValidate aria-label="Join the waitlist" className="flex flex-col gap-3 sm:flex-row sm:items-end">
      <div className="min-w-0 flex-1">
        <Field label="Email address">
          {({ id }) => (
            <Input
              id={id}
              type="email"
              name="email"
              required
              autoComplete="email"
              placeholder="you@company.com"
              value={email}
              onChange={(event) => setEmail(event.target.value)}
            />
          )}
        </Field>
      </div>
      <Button type="submit" disabled={request.isPending} className="shrink-0">
        {request.isPending ? "Submitting..." : "Request access"}
      </Button>
    </form>
  );
}
