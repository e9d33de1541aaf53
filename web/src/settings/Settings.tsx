import { API_KEY_MESSAGES, type AuthUser } from "@sd/contracts";
import { useEffect } from "react";
import { useSearchParams } from "react-router";
import { SignedOutError } from "../api/authorized";
import { ApiKeysSection } from "./ApiKeysSection";
import { organizationLabel } from "./format";
import { LimitsSection } from "./LimitsSection";
import { PresetsSection } from "./PresetsSection";
import { BillingSection, OrganizationSection, PrivacySection, WorkspacesSection } from "./PlanSections";
import { SECTION_PARAM, sectionFromParam } from "./sections";
import { SettingsSidebar } from "./SettingsSidebar";
import { SettingsSignIn } from "./SettingsSignIn";
import { WebhooksSection } from "./WebhooksSection";
import { toastError, useApiKeys, useUsage } from "./useSettingsQueries";

/**
 * The signed-in user's settings: the sidebar and the open section. A call that finds the session
 * gone (its token refresh failed) turns the page into the sign-in request.
 */
export function Settings({ user, onSignIn }: { user: AuthUser; onSignIn: () => void }) {
  const [params] = useSearchParams();
  const section = sectionFromParam(params.get(SECTION_PARAM));
  const keys = useApiKeys(user.id);
  // Asked only when Limits is open: its figures are measured, so they load fresh each time.
  const usage = useUsage(section === "limits" ? user.id : null);

  const keysError = keys.error;
  const keysFailedAt = keys.errorUpdatedAt;
  useEffect(() => {
    if (keysError && !(keysError instanceof SignedOutError)) toastError(API_KEY_MESSAGES.fetchFailed);
  }, [keysError, keysFailedAt]);

  if (keys.error instanceof SignedOutError || usage.error instanceof SignedOutError) return <SettingsSignIn expired onSignIn={onSignIn} />;
  return (
    <div className="grid gap-6 md:grid-cols-[12rem_minmax(0,1fr)]">
      <SettingsSidebar organization={organizationLabel(user)} current={section} keyCount={keys.data?.length ?? null} />
      <div className="min-w-0">
        {section === "api-keys" ? (
          // Presets sit with the keys: API calls name them (`preset` in /v1/ensemble), and the sidebar keeps the specification's sections.
          <div className="space-y-6">
            <ApiKeysSection userId={user.id} keys={keys.data} loading={keys.isPending} failed={keys.isError} onRetry={() => void keys.refetch()} />
            <PresetsSection userId={user.id} />
          </div>
        ) : section === "webhooks" ? (
          <WebhooksSection userId={user.id} />
        ) : section === "billing" ? (
          <BillingSection />
        ) : section === "limits" ? (
          <LimitsSection usage={usage.data} loading={usage.isFetching} failed={usage.isError} onRetry={() => void usage.refetch()} />
        ) : section === "organization" ? (
          <OrganizationSection />
        ) : section === "workspaces" ? (
          <WorkspacesSection />
        ) : (
          <PrivacySection />
        )}
      </div>
    </div>
  );
}
