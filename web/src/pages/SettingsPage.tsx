import { useSession } from "../auth/session-context";
import { useSignIn } from "../auth/sign-in-context";
import { Page } from "../layout/Page";
import { Settings } from "../settings/Settings";
import { SettingsSignIn } from "../settings/SettingsSignIn";

function SettingsSkeleton() {
  return (
    <div role="status" aria-label="Loading settings" className="grid gap-6 md:grid-cols-[12rem_minmax(0,1fr)]">
      <div className="h-48 animate-pulse rounded-xl bg-slate-200" />
      <div className="h-64 animate-pulse rounded-xl bg-slate-100" />
    </div>
  );
}

/**
 * /settings: API keys, billing and limits of the signed-in user. Signed
 * out, or with an expired session, it asks to sign in.
 */
export default function SettingsPage() {
  const { loading, authenticated, expired, user } = useSession();
  const { openSignIn } = useSignIn();
  return (
    <Page title="Settings">
      <h1 className="mb-6 text-3xl font-bold text-slate-900">Settings</h1>
      {loading ? (
        <SettingsSkeleton />
      ) : authenticated && user ? (
        // Keyed by the user: nothing of one account's page (a shown key, an open dialog) survives into the next.
        <Settings key={user.id} user={user} onSignIn={openSignIn} />
      ) : (
        <SettingsSignIn expired={expired} onSignIn={openSignIn} />
      )}
    </Page>
  );
}
