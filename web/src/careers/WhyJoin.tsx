import { FeatureCard } from "../ui/feature-card";
import { WHY_JOIN } from "./why-join";

/** 'Why Join': three value cards. */
export function WhyJoin() {
  return (
    <section aria-labelledby="why-join-title" className="mt-14">
      <h2 id="why-join-title" className="text-2xl font-bold text-slate-900">
        Why Join Smart Decision?
      </h2>
      <ul className="mt-6 grid gap-4 md:grid-cols-3">
        {WHY_JOIN.map(({ title, description, icon }) => (
          <li key={title}>
            <FeatureCard icon={icon} title={title} text={description} />
          </li>
        ))}
      </ul>
    </section>
  );
}
