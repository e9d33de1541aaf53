import { useEffect, useRef } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { googleCallback, verifyMagicLink } from "../auth/auth-api";
import { callbackRequest, completeCallback } from "../auth/auth-callback";
import { googleOAuthState } from "../auth/google-oauth-state";
import { useSession } from "../auth/session-context";
import { Page } from "../layout/Page";
import { toast } from "../ui/toast";

/**
 * /auth/callback: where a magic link and Google's redirect land. It
 * signs in and goes to /console, or says why not and goes to /.
 */
export default function AuthCallbackPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { signIn } = useSession();
  // A magic-link token is single-use: StrictMode's second run of the effect must not spend it again.
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const request = callbackRequest(params);
    void completeCallback(request, {
      verifyMagicLink,
      googleCallback,
      googleState: googleOAuthState(window.sessionStorage),
      signIn,
      notify: toast,
    }).then((next) => navigate(next, { replace: true }));
  }, [params, navigate, signIn]);

  return (
    <Page title="Signing in">
      <div role="status">
        <h1 className="text-center text-lg font-medium text-slate-600">Signing you in...</h1>
      </div>
    </Page>
  );
}
