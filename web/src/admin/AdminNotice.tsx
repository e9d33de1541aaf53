import { ADMIN_MESSAGES } from "@sd/contracts";
import { CircleAlert, ShieldOff } from "lucide-react";
import type { ReactNode } from "react";
import { Button, ButtonLink } from "../ui/button";

function Notice({ icon, heading, children }: { icon: ReactNode; heading: string; children: ReactNode }) {
  return (
    <div role="alert" className="mx-auto max-w-lg rounded-xl border border-amber-300 bg-amber-50 p-6 text-center text-amber-900">
      {icon}
      <h2 className="mt-3 text-xl font-semibold">{heading}</h2>
      {children}
    </div>
  );
}

/** Signed out, or the session expired: the dashboard asks to sign in. */
export function AdminSignInPrompt({ expired, onSignIn }: { expired: boolean; onSignIn: () => void }) {
  return (
    <Notice icon={<CircleAlert className="mx-auto size-8" aria-hidden />} heading="Sign in required">
      <p className="mt-2">{ADMIN_MESSAGES.signInPrompt}</p>
      <Button className="mt-4" onClick={onSignIn}>
        {expired ? "Sign in again" : "Sign in"}
      </Button>
    </Notice>
  );
}

/**
 * A signed-in user who is not an admin: said plainly, rather than an empty dashboard that looks
 * broken. `detail` is why the admin check failed, when it did.
 */
export function NotAnAdmin({ email, detail }: { email: string; detail: string | null }) {
  return (
    <Notice icon={<ShieldOff className="mx-auto size-8" aria-hidden />} heading="Not an admin">
      <p className="mt-2">{ADMIN_MESSAGES.notAdmin}</p>
      <p className="mt-2 break-all text-sm">Signed in as {email}</p>
      {detail ? <p className="mt-2 text-sm">{detail}</p> : null}
      <ButtonLink to="/dashboard" variant="secondary" className="mt-4">
        Go to your dashboard
      </ButtonLink>
    </Notice>
  );
}
