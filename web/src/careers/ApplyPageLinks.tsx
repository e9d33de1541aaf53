import { Link } from "react-router";

const LINKS = [
  { to: "/careers", label: "All open positions" },
  { to: "/", label: "Home" },
  { to: "/playground", label: "Try the playground" },
  { to: "/sd-api", label: "API documentation" },
] as const;

/** The application page's footer: back to careers, home, the playground and the API docs. */
export function ApplyPageLinks() {
  return (
    <nav aria-label="More from Smart Decision" className="mt-10 border-t border-slate-200 pt-6">
      <ul className="flex flex-wrap justify-center gap-x-6 gap-y-2 text-sm">
        {LINKS.map((link) => (
          <li key={link.to}>
            <Link to={link.to} className="font-medium text-brand-700 hover:underline">
              {link.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
