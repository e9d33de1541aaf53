import { Briefcase, Building2, ChevronDown, Clock, GraduationCap, MapPin, type LucideIcon } from "lucide-react";
import { ButtonLink } from "../ui/button";
import { cn } from "../ui/cn";
import { applyJobHref, type JobPosition } from "./positions";

function PositionFact({ icon: Icon, label, value }: { icon: LucideIcon; label: string; value: string }) {
  return (
    <div className="flex items-center gap-1.5">
      <dt className="sr-only">{label}</dt>
      <Icon aria-hidden className="size-4 shrink-0 text-slate-400" />
      <dd>{value}</dd>
    </div>
  );
}

function DetailList({ title, items }: { title: string; items: readonly string[] }) {
  return (
    <div>
      <h4 className="font-semibold text-slate-900">{title}</h4>
      <ul className="mt-3 list-disc space-y-2 pl-5 text-sm text-slate-600 marker:text-brand-500">
        {items.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
    </div>
  );
}

interface PositionCardProps {
  position: JobPosition;
  expanded: boolean;
  onToggle: () => void;
}

/**
 * One open position. The whole summary is clickable (the title's button stretches over it) and
 * toggles the details: responsibilities, requirements, benefits and 'Apply Now'.
 */
export function PositionCard({ position, expanded, onToggle }: PositionCardProps) {
  const detailsId = `position-${position.id}-details`;
  return (
    <article className={cn("rounded-xl border bg-white shadow-sm transition-colors", expanded ? "border-brand-500" : "border-slate-200 hover:border-brand-500")}>
      <div className="relative p-6">
        <div className="flex items-start justify-between gap-4">
          <h3 className="text-xl font-semibold text-slate-900">
            <button
              type="button"
              aria-expanded={expanded}
              aria-controls={detailsId}
              onClick={onToggle}
              className="cursor-pointer text-left after:absolute after:inset-0 after:rounded-xl focus-visible:outline-none focus-visible:after:outline-3 focus-visible:after:outline-offset-2 focus-visible:after:outline-brand-500"
            >
              {position.title}
            </button>
          </h3>
          <ChevronDown aria-hidden className={cn("mt-1 size-5 shrink-0 text-slate-500 transition-transform", expanded && "rotate-180")} />
        </div>
        <p className="mt-2 text-slate-600">{position.description}</p>
        <dl className="mt-4 flex flex-wrap gap-x-6 gap-y-2 text-sm text-slate-600">
          <PositionFact icon={MapPin} label="Location" value={position.location} />
          <PositionFact icon={Clock} label="Type" value={position.type} />
          <PositionFact icon={Building2} label="Department" value={position.department} />
          <PositionFact icon={GraduationCap} label="Experience" value={position.experience} />
        </dl>
      </div>
      <div id={detailsId} hidden={!expanded} className="border-t border-slate-200 px-6 pt-6 pb-6">
        <div className="grid gap-6 md:grid-cols-3">
          <DetailList title="Key Responsibilities" items={position.responsibilities} />
          <DetailList title="Requirements" items={position.requirements} />
          <DetailList title="Benefits & Perks" items={position.benefits} />
        </div>
        <ButtonLink to={applyJobHref(position)} className="mt-6 w-full sm:w-auto" aria-label={`Apply Now for ${position.title}`}>
          <Briefcase aria-hidden className="size-4" />
          Apply Now
        </ButtonLink>
      </div>
    </article>
  );
}
