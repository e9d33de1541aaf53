import type { LucideIcon } from "lucide-react";
import { Link } from "react-router";
import { cn } from "../ui/cn";

type Action = { to: string } | { href: string } | { onClick: () => void };

interface ActionCardProps {
  icon: LucideIcon;
  title: string;
  description: string;
  action: Action;
  /** The title's heading level, to fit the page's outline. */
  headingLevel?: 2 | 3;
}

/** The whole card is the target: the title's link or button stretches over it. */
const stretched = "after:absolute after:inset-0 after:content-[''] focus-visible:outline-none";

function ActionTarget({ action, children }: { action: Action; children: string }) {
  if ("to" in action) {
    return (
      <Link to={action.to} className={stretched}>
        {children}
      </Link>
    );
  }
  if ("href" in action) {
    return (
      <a href={action.href} className={stretched}>
        {children}
      </a>
    );
  }
  return (
    <button type="button" onClick={action.onClick} className={cn(stretched, "text-left")}>
      {children}
    </button>
  );
}

/** A card that is one big link or button, with an icon, a title and a short description. */
export function ActionCard({ icon: Icon, title, description, action, headingLevel = 2 }: ActionCardProps) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <div className="group relative flex h-full flex-col gap-3 rounded-xl border border-slate-200 bg-white p-6 shadow-sm transition hover:border-brand-500 hover:shadow-md has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-500">
      <span aria-hidden className="grid size-10 place-items-center rounded-lg bg-brand-50 text-brand-600">
        <Icon className="size-5" />
      </span>
      <Heading className="text-lg font-semibold text-slate-900 group-hover:text-brand-700">
        <ActionTarget action={action}>{title}</ActionTarget>
      </Heading>
      <p className="text-sm text-slate-600">{description}</p>
    </div>
  );
}
