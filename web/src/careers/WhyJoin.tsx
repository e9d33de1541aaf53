import { Card } from "../ui/card";
import { WHY_JOIN } from "./why-join";

/** 'Why Join': three value cards. */
export function WhyJoin() {
  return (
    <section aria-labelledby="why-join-title" className="mt-14">
      <h2 id="why-join-title" className="text-2xl font-bold text-slate-900">
        Why Join Smart Decision?
      </h2>
      <ul className="mt-6 grid gap-4 md:grid-cols-3">
        {WHY_JOIN.map(({ title, description, icon: Icon }) => (
          <li key={title}>
            <Card className="h-full">
              <span aria-hidden className="grid size-10 place-items-center rounded-lg bg-brand-50 text-brand-600">
                <Icon className="size-5" />
              </span>
              <h3 className="mt-4 text-lg font-semibold text-slate-900">{title}</h3>
              <p className="mt-2 text-sm text-slate-600">{description}</p>
            </Card>
          </li>
        ))}
      </ul>
    </section>
  );
}
