import type { AuthUser } from "@sd/contracts";
import { BadgeCheck, CircleAlert, LogOut, Mail } from "lucide-react";
import { Button } from "../ui/button";
import { cn } from "../ui/cn";

/** 'Verified' or 'Unverified Account'. */
function VerificationBadge({ verified }: { verified: boolean }) {
  const Icon = verified ? BadgeCheck : CircleAlert;
  return (
    <span
      className={cn(
        "inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium",
        verified ? "bg-emerald-50 text-emerald-800" : "bg-amber-50 text-amber-900",
      )}
    >
      <Icon aria-hidden className="size-3.5" />
      {verified ? "Verified" : "Unverified Account"}
    </span>
  );
}

/** The console's account chip: the email, whether it is verified, and Sign Out. */
export function AccountChip({ user, signingOut, onSignOut }: { user: AuthUser; signingOut: boolean; onSignOut: () => void }) {
  return (
    <section
      aria-label="Your account"
      className="flex w-fit max-w-full flex-wrap items-center gap-x-3 gap-y-2 rounded-2xl border border-slate-200 bg-slate-50 px-4 py-2"
    >
      <span className="flex min-w-0 items-center gap-2 text-sm text-slate-800">
        <Mail aria-hidden className="size-4 shrink-0 text-slate-500" />
        <span className="break-all">{user.email}</span>
      </span>
      <VerificationBadge verified={user.is_verified} />
      <Button variant="ghost" size="sm" onClick={onSignOut} disabled={signingOut}>
        <LogOut aria-hidden className="size-4" />
        {signingOut ? "Signing out..." : "Sign Out"}
      </Button>
    </section>
  );
}
