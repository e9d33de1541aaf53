import { FREE_TIER } from "@sd/contracts";
import type { ReactNode } from "react";
import { Link } from "react-router";
import { formatAllowance, formatCount } from "./format";
import { SettingsSection } from "./SettingsSection";

/** Billing text of the free tier. */
export const FREE_TIER_BILLING = "Free tier - No billing information required";
export const COMING_SOON = "Coming Soon";

/** Billing: every account is on the free tier. */
export function BillingSection() {
  return (
    <SettingsSection title="Billing">
      <p className="font-medium text-slate-900">{FREE_TIER_BILLING}</p>
      <ul className="mt-3 list-disc space-y-1 pl-5 text-sm text-slate-600">
        <li>{formatCount(FREE_TIER.apiRequestsPerMonth)} API requests per month</li>
        <li>{formatAllowance(FREE_TIER.storageBytes)} of image storage</li>
      </ul>
    </SettingsSection>
  );
}

/** A section that is planned but not built: says so, and what it will hold. */
function ComingSoonSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <SettingsSection title={title}>
      <p className="inline-flex rounded-full bg-slate-100 px-3 py-1 text-sm font-semibold text-slate-700">{COMING_SOON}</p>
      <p className="mt-3 text-sm text-slate-600">{children}</p>
    </SettingsSection>
  );
}

export const OrganizationSection = () => <ComingSoonSection title="Organization">Invite teammates and share keys and decision history.</ComingSoonSection>;

export const WorkspacesSection = () => (
  <ComingSoonSection title="Workspaces">Separate keys and usage per project. For now each key carries a workspace name of your choice.</ComingSoonSection>
);

export const PrivacySection = () => (
  <ComingSoonSection title="Privacy controls">
    Choose how long your decisions are kept. Until then the <Link to="/privacy" className="font-medium text-brand-700 underline">Privacy Policy</Link> applies.
  </ComingSoonSection>
);
