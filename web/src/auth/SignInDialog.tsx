import { useState, type FormEvent } from "react";
import { EMAIL_REQUIRED, trimmedEmail } from "../lib/validation";
import { Button } from "../ui/button";
import { Dialog } from "../ui/dialog";
import { Field, Input } from "../ui/field";
import { Tabs } from "../ui/tabs";
import { toast } from "../ui/toast";
import { AUTH_FALLBACKS, authErrorText, googleAuthorization, requestMagicLink } from "./auth-api";
import { googleOAuthState } from "./google-oauth-state";

type Tab = "magic-link" | "google";

/**
 * Sign in with a magic link (default tab) or Google. Closing the dialog resets the email and the tab.
 */
export function SignInDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const [tab, setTab] = useState<Tab>("magic-link");
  const [email, setEmail] = useState("");
  const [busy, setBusy] = useState(false);

  const change = (next: boolean) => {
    if (!next) {
      setTab("magic-link");
      setEmail("");
    }
    onOpenChange(next);
  };

  const sendMagicLink = async (event: FormEvent) => {
    event.preventDefault();
    const value = trimmedEmail(email);
    if (value === null) {
      toast.error(EMAIL_REQUIRED.title, EMAIL_REQUIRED.description);
      return;
    }
    setBusy(true);
    try {
      toast.success("Magic link sent!", await requestMagicLink(value));
      change(false);
    } catch (error) {
      toast.error("Error", authErrorText(error, AUTH_FALLBACKS.loginRequest));
    } finally {
      setBusy(false);
    }
  };

  const continueWithGoogle = async () => {
    setBusy(true);
    try {
      const { state, authorization_url } = await googleAuthorization();
      googleOAuthState(window.sessionStorage).save(state);
      window.location.assign(authorization_url);
    } catch (error) {
      toast.error("Error", authErrorText(error, AUTH_FALLBACKS.googleUrl));
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onOpenChange={change} title="Sign in to Smart Decision" description="Save your decision history and manage API keys.">
      <Tabs
        label="Sign-in method"
        value={tab}
        onValueChange={(v) => setTab(v as Tab)}
        items={[
          {
            value: "magic-link",
            label: "Magic link",
            content: (
              <form onSubmit={sendMagicLink} noValidate className="space-y-4">
                <Field label="Email">
                  {({ id }) => (
                    <Input
                      id={id}
                      type="email"
                      autoComplete="email"
                      placeholder="you@example.com"
                      value={email}
                      onChange={(e) => setEmail(e.target.value)}
                    />
                  )}
                </Field>
                <Button type="submit" className="w-full" disabled={busy}>
                  {busy ? "Sending..." : "Send magic link"}
                </Button>
              </form>
            ),
          },
          {
            value: "google",
            label: "Google",
            content: (
              <Button variant="secondary" className="w-full" onClick={continueWithGoogle} disabled={busy}>
                Continue with Google
              </Button>
            ),
          },
        ]}
      />
    </Dialog>
  );
}
