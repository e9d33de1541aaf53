import type { ComponentType } from "react";
import { Card } from "./card";

/** An icon, a title and a short text: the value and feature cards of the marketing pages. */
export function FeatureCard({ icon: Icon, title, text }: { icon: ComponentType<{ className?: string }>; title: string; text: string }) {
  return (
    <Card className="h-full">
      <span aria-hidden className="grid size-10 place-items-center rounded-lg bg-brand-50 text-brand-600">
        <Icon className="size-5" />
      </span>
      <h3 className="mt-4 text-lg font-semibold text-slate-900">{title}</h3>
      <p className="mt-2 text-sm text-slate-600">{text}</p>
    </Card>
  );
}
