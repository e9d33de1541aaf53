/** The settings sidebar's sections, in order. */
export const SETTINGS_SECTIONS = [
  { id: "api-keys", label: "API keys" },
  { id: "webhooks", label: "Webhooks" },
  { id: "billing", label: "Billing" },
  { id: "limits", label: "Limits" },
  { id: "organization", label: "Organization" },
  { id: "workspaces", label: "Workspaces" },
  { id: "privacy", label: "Privacy controls" },
] as const;

export type SettingsSectionId = (typeof SETTINGS_SECTIONS)[number]["id"];

/** The query parameter naming the open section, so each one has its own address (and Back works). */
export const SECTION_PARAM = "section";

const ids: ReadonlySet<string> = new Set(SETTINGS_SECTIONS.map((section) => section.id));

/** The section a `?section=` value opens: API keys when it is missing or names none. */
export function sectionFromParam(value: string | null): SettingsSectionId {
  return value !== null && ids.has(value) ? (value as SettingsSectionId) : "api-keys";
}
