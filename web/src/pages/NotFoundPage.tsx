import { Mail } from "lucide-react";
import { Link } from "react-router";
import { CONTACT, mailto } from "../content/contact";
import { Page } from "../layout/Page";
import { ButtonLink } from "../ui/button";

const LINKS = [
  { to: "/playground", label: "Try the Playground" },
  { to: "/sd-api", label: "API" },
  { to: "/developers", label: "Developers" },
] as const;

export default function NotFoundPage() {
  return (
    <Page title="Page not found">
      <div className="mx-auto max-w-xl py-10 text-center">
        <p className="text-7xl font-extrabold text-brand-600" aria-hidden>
          404
        </p>
        <h1 className="mt-4 text-3xl font-bold tracking-tight text-slate-900">Oops! Page not found</h1>
        <p className="mt-3 text-slate-600">The page you are looking for does not exist or has moved.</p>
        <div className="mt-8 flex justify-center">
          <ButtonLink to="/" size="lg">
            Go Home
          </ButtonLink>
        </div>
        <nav aria-label="Helpful links" className="mt-8">
          <ul className="flex flex-wrap justify-center gap-x-6 gap-y-2 text-sm font-medium">
            {LINKS.map((link) => (
              <li key={link.to}>
                <Link to={link.to} className="text-brand-700 underline-offset-2 hover:underline">
                  {link.label}
                </Link>
              </li>
            ))}
            <li>
              <a href={mailto(CONTACT.general, "Page not found")} className="inline-flex items-center gap-1 text-brand-700 underline-offset-2 hover:underline">
                <Mail className="size-4" aria-hidden /> Contact us
              </a>
            </li>
          </ul>
        </nav>
      </div>
    </Page>
  );
}
