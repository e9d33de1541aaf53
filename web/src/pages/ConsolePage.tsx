import type { AuthUser } from "@sd/contracts";
import { Clock, KeyRound, LogIn, Scale } from "lucide-react";
import { useState, type ReactNode } from "react";
import { useNavigate } from "react-router";
import { AccountChip } from "../auth/AccountChip";
import { displayName, SESSION_EXPIRED_NOTICE } from "../auth/session";
import { useSession } from "../auth/session-context";
import { useSignIn } from "../auth/sign-in-context";
import { Page } from "../layout/Page";
import { ActionCard } from "../site/ActionCard";

function MakeDecisionCard() {
  return (
    <ActionCard
      icon={Scale}
      title="Make a Decision"
      description="Ask a question, list the allowed answers and watch the models vote."
      action={{ to: "/playground" }}
    />
  );
}

function ConsoleLayout({ heading, intro, children }: { heading: string; intro: string; children: ReactNode }) {
  return (
    <Page title="Smart Decision Console">
      <div className="mx-auto max-w-4xl">
        <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">{heading}</h1>
        <p className="mt-3 text-slate-600">{intro}</p>
        {children}
      </div>
    </Page>
  );
}

/** The console as a signed-in user sees it: their account, make a decision, manage API keys. */
function SignedInConsole({ user, onSignOut }: { user: AuthUser; onSignOut: () => Promise<void> }) {
  const [signingOut, setSigningOut] = useState(false);
  const signOut = () => {
    setSigningOut(true);
    void onSignOut();
  };
  return (
    <ConsoleLayout heading={`Welcome, ${displayName(user)}`} intro="Your decisions are saved to your history.">
      <div className="mt-6">
        <AccountChip user={user} signingOut={signingOut} onSignOut={signOut} />
      </div>
      <ul className="mt-8 grid gap-4 sm:grid-cols-2">
        <li>
          <MakeDecisionCard />
        </li>
        <li>
          <ActionCard icon={KeyRound} title="Manage API Keys" description="Create, reveal and revoke the keys of your API clients." action={{ to: "/settings" }} />
        </li>
      </ul>
    </ConsoleLayout>
  );
}

/** The console as a signed-out visitor sees it: make a decision, or sign in. */
function SignedOutConsole({ expired }: { expired: boolean }) {
  const { openSignIn } = useSignIn();
  return (
    <ConsoleLayout heading="Smart Decision Console" intro="Ask several AI models one question and get one combined decision.">
      {expired ? (
        <p role="status" className="mt-6 flex items-start gap-2 rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900">
          <Clock aria-hidden className="mt-0.5 size-4 shrink-0" />
          {SESSION_EXPIRED_NOTICE}
        </p>
      ) : null}
      <ul className="mt-8 grid gap-4 sm:grid-cols-2">
        <li>
          <MakeDecisionCard />
        </li>
        <li>
          <ActionCard icon={LogIn} title="Sign In / Sign Up" description="Keep your decision history and manage API keys." action={{ onClick: openSignIn }} />
        </li>
      </ul>
    </ConsoleLayout>
  );
}

/** /console: welcome and account for a signed-in user, or the way in for a visitor. */
export default function ConsolePage() {
  const session = useSession();
  const navigate = useNavigate();
  if (session.loading) return null;
  if (session.authenticated && session.user) {
    const signOut = async () => {
      await session.logout();
      await navigate("/");
    };
    return <SignedInConsole user={session.user} onSignOut={signOut} />;
  }
  return <SignedOutConsole expired={session.expired} />;
}
