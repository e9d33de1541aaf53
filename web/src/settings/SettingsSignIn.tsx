import { CircleAlert } from "lucide-react";
import { Button } from "../ui/button";

/** Texts of the signed-out settings page. */
export const SETTINGS_SIGN_IN = {
  heading: "Authentication Required",
  message: "Please sign in to access your settings.",
} as const;

/** What a visitor without a valid session sees: an expired session counts as signed out. */
export function SettingsSignIn({ expired, onSignIn }: { expired: boolean; onSignIn: () => void }) {
  return (
    <div role="alert" className="mx-auto max-w-lg rounded-xl border border-amber-300 bg-amber-50 p-6 text-center text-amber-900">
      <CircleAlert className="mx-auto size-8" aria-hidden />
      <h2 className="mt-3 text-xl font-semibold">{SETTINGS_SIGN_IN.heading}</h2>
      <p className="mt-2">{SETTINGS_SIGN_IN.message}</p>
      <Button className="mt-4" onClick={onSignIn}>
        {expired ? "Sign in again" : "Sign in"}
      </Button>
    </div>
  );
}
