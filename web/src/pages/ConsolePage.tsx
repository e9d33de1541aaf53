import { LogIn, Scale } from "lucide-react";
import { useSignIn } from "../auth/sign-in-context";
import { Page } from "../layout/Page";
import { ActionCard } from "../site/ActionCard";

/** The console as a signed-out visitor sees it: make a decision, or sign in. */
export default function ConsolePage() {
  const { openSignIn } = useSignIn();
  return (
    <Page title="Smart Decision Console">
      <div className="mx-auto max-w-4xl">
        <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">Smart Decision Console</h1>
        <p className="mt-3 text-slate-600">Ask several AI models one question and get one combined decision.</p>
        <ul className="mt-8 grid gap-4 sm:grid-cols-2">
          <li>
            <ActionCard
              icon={Scale}
              title="Make a Decision"
              description="Ask a question, list the allowed answers and watch the models vote."
              action={{ to: "/playground" }}
            />
          </li>
          <li>
            <ActionCard
              icon={LogIn}
              title="Sign In / Sign Up"
              description="Keep your decision history and manage API keys."
              action={{ onClick: openSignIn }}
            />
          </li>
        </ul>
      </div>
    </Page>
  );
}
