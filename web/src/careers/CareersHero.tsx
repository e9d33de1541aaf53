import { Briefcase, Clock, MapPin, type LucideIcon } from "lucide-react";
import { EMPLOYMENT_TYPE, OFFICE_LOCATION } from "./positions";

function HeroFact({ icon: Icon, children }: { icon: LucideIcon; children: string }) {
  return (
    <li className="flex items-center gap-2 rounded-full bg-white/15 px-4 py-2 text-sm font-medium">
      <Icon aria-hidden className="size-4 shrink-0" />
      {children}
    </li>
  );
}

/** The careers page's opening: where we are, how many roles are open, and that they are full-time. */
export function CareersHero({ openPositions }: { openPositions: number }) {
  return (
    <section aria-labelledby="careers-title" className="rounded-2xl bg-linear-to-br from-brand-600 to-brand-700 px-6 py-12 text-white sm:px-10">
      <p className="text-sm font-semibold tracking-wide text-brand-100 uppercase">Careers at Smart Decision</p>
      <h1 id="careers-title" className="mt-2 text-3xl font-bold sm:text-4xl">
        Join Our Team
      </h1>
      <p className="mt-4 max-w-2xl text-lg text-brand-50">
        We ask several AI models the same question and combine their votes into decisions people can trust. Help us build the
        platform, the product and the company behind it.
      </p>
      <ul className="mt-8 flex flex-wrap gap-3" aria-label="At a glance">
        <HeroFact icon={MapPin}>{OFFICE_LOCATION}</HeroFact>
        <HeroFact icon={Briefcase}>{`${openPositions} Open Positions`}</HeroFact>
        <HeroFact icon={Clock}>{EMPLOYMENT_TYPE}</HeroFact>
      </ul>
    </section>
  );
}
