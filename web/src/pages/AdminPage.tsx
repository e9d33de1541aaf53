import { useSession } from "../auth/session-context";
import { useSignIn } from "../auth/sign-in-context";
import { AdminDashboard } from "../admin/AdminDashboard";
import { AdminSignInPrompt, NotAnAdmin } from "../admin/AdminNotice";
import { PanelSkeleton } from "../admin/Panel";
import { useAdminCheck } from "../auth/useAdminCheck";
import { Page } from "../layout/Page";

function AdminSkeleton() {
  return (
    <div role="status" aria-label="Loading admin dashboard" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      {[0, 1, 2, 3].map((n) => (
        <PanelSkeleton key={n} />
      ))}
    </div>
  );
}

/**
 * /admin: usage and health for admins. Signed out or expired: the
 * sign-in prompt; signed in but not an admin: said plainly; an admin: the dashboard.
 */
export default function AdminPage() {
  const { loading, authenticated, expired, user, tokens } = useSession();
  const { openSignIn } = useSignIn();
  const access = useAdminCheck();
  return (
    <Page title="Admin">
      <h1 className="mb-6 text-3xl font-bold text-slate-900">Admin Dashboard</h1>
      {loading ? (
        <AdminSkeleton />
      ) : !authenticated || !user ? (
        <AdminSignInPrompt expired={expired} onSignIn={openSignIn} />
      ) : access.pending ? (
        <AdminSkeleton />
      ) : !access.isAdmin ? (
        <NotAnAdmin email={user.email} detail={access.error} />
      ) : (
        // Keyed by the user: nothing of one admin's page (periods, live samples) survives into the next account.
        <AdminDashboard key={user.id} user={user} accessToken={tokens?.access_token ?? null} onSignIn={openSignIn} />
      )}
    </Page>
  );
}
