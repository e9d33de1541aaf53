import { useSignIn } from "../auth/sign-in-context";
import { Page } from "../layout/Page";
import { Button } from "../ui/button";

/** What a signed-out visitor sees on a page that needs an account (until sign-in lands there). */
export function SignInRequired({ title, message, heading }: { title: string; heading: string; message: string }) {
  const { openSignIn } = useSignIn();
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
