import { useSession } from "../auth/session-context";
import { useSignIn } from "../auth/sign-in-context";
import { Page } from "../layout/Page";
import { Button, ButtonLink } from "../ui/button";

/**
 * A page that needs an account and is not built yet: signed-out visitors (or an expired session)
 * are asked to sign in; signed-in users are told plainly that the page is on its way.
 */
export function SignInRequired({ title, message, heading }: { title: string; heading: string; message: string }) {
  const { openSignIn } = useSignIn();
  const { authenticated, loading } = useSession();
  if (loading) return null;
  if (authenticated) {
    return (
      <Page title={title}>
        <div className="mx-auto max-w-lg rounded-xl border border-slate-200 bg-slate-50 p-6 text-center">
          <h1 className="text-xl font-semibold text-slate-900">{title}</h1>
          <p className="mt-2 text-slate-700">This page is not available yet. Your decisions are saved to your account in the meantime.</p>
          <ButtonLink to="/playground" className="mt-4">
            Make a Decision
          </ButtonLink>
        </div>
      </Page>
    );
  }
  return (
    <Page title={title}>
      <div role="alert" className="mx-auto max-w-lg rounded-xl border border-amber-300 bg-amber-50 p-6 text-center">
        <h1 className="text-xl font-semibold text-amber-900">{heading}</h1>
        <p className="mt-2 text-amber-900">{message}</p>
        <Button className="mt-4" onClick={openSignIn}>
          Sign in
        </Button>
      </div>
    </Page>
  );
}
