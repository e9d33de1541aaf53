import type { ReactNode } from "react";
import { Link } from "react-router";
import { Page } from "../layout/Page";

/** Both legal pages take effect on this date. */
export const LEGAL_EFFECTIVE_DATE = "September 8, 2025";

/** A legal page: title, effective date, numbered sections and a link to the other legal page. */
export function LegalPage({ title, intro, related, children }: {
  title: string;
  intro: ReactNode;
  related: { to: string; label: string };
  children: ReactNode;
}) {
  return (
    <Page title={title}>
      <article className="mx-auto max-w-3xl">
        <header className="border-b border-slate-200 pb-6">
          <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">{title}</h1>
          <p className="mt-2 text-sm text-slate-500">Effective {LEGAL_EFFECTIVE_DATE}</p>
          <div className="mt-4 space-y-3 text-slate-700">{intro}</div>
        </header>
        <div className="space-y-8 py-8">{children}</div>
        <footer className="border-t border-slate-200 pt-6 text-sm text-slate-600">
          Please also read our{" "}
          <LegalLink href={related.to}>{related.label}</LegalLink>
          .
        </footer>
      </article>
    </Page>
  );
}

/** One section of a legal page. */
export function LegalSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="space-y-3 text-slate-700">
      <h2 className="text-xl font-semibold text-slate-900">{title}</h2>
      {children}
    </section>
  );
}

/** A bulleted list inside a legal section. */
export function LegalList({ children }: { children: ReactNode }) {
  return <ul className="list-disc space-y-2 pl-6">{children}</ul>;
}

const legalLink = "font-medium text-brand-700 underline underline-offset-2 hover:text-brand-600";

/** A link inside legal text: a page of this site (starting with /) or an external or mailto address. */
export function LegalLink({ href, children }: { href: string; children: ReactNode }) {
  if (href.startsWith("/")) {
    return (
      <Link to={href} className={legalLink}>
        {children}
      </Link>
    );
  }
  return (
    <a href={href} className={legalLink}>
      {children}
    </a>
  );
}
