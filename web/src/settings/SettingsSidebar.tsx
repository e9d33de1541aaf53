import { Building2 } from "lucide-react";
import { Link } from "react-router";
import { cn } from "../ui/cn";
import { SECTION_PARAM, SETTINGS_SECTIONS, type SettingsSectionId } from "./sections";

interface SidebarProps {
  organization: string;
  current: SettingsSectionId;
  /** How many API keys the user has; null while the list loads. */
  keyCount: number | null;
}

/**
 * The settings sidebar: the organization label and one link per section. On phones it sits
 * above the section as wrapping pills; from md up it is a column beside it.
 */
export function SettingsSidebar({ organization, current, keyCount }: SidebarProps) {
  return (
    <nav aria-label="Settings sections" className="min-w-0">
      <p className="mb-3 flex min-w-0 items-center gap-2 text-sm font-semibold text-slate-900">
        <Building2 className="size-4 shrink-0 text-slate-500" aria-hidden />
        <span className="min-w-0 break-words" data-testid="organization-label">
          {organization}
        </span>
      </p>
      <ul className="flex flex-wrap gap-2 md:flex-col md:gap-1">
        {SETTINGS_SECTIONS.map((section) => {
          const active = section.id === current;
          return (
            <li key={section.id}>
              <Link
                to={{ search: `?${SECTION_PARAM}=${section.id}` }}
                aria-current={active ? "page" : undefined}
                className={cn(
                  "flex items-center justify-between gap-3 rounded-lg px-3 py-2 text-sm font-medium transition-colors",
                  active ? "bg-brand-50 text-brand-700" : "text-slate-700 hover:bg-slate-100",
                )}
              >
                {section.label}
                {section.id === "api-keys" && keyCount !== null ? (
                  <span className="rounded-full bg-slate-200 px-2 py-0.5 text-xs font-semibold text-slate-700">
                    <span aria-hidden>{keyCount}</span>
                    <span className="sr-only">{`(${keyCount} ${keyCount === 1 ? "key" : "keys"})`}</span>
                  </span>
                ) : null}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
