import { Link } from "react-router";

export function Footer() {
  return (
    <footer className="border-t border-slate-200 bg-slate-50">
      <div className="mx-auto flex max-w-6xl flex-col gap-2 px-4 py-6 text-sm text-slate-600 sm:flex-row sm:items-center sm:justify-between">
        <p>&copy; {new Date().getFullYear()} Smart Decision. All rights reserved.</p>
        <nav aria-label="Legal" className="flex gap-4">
          <Link to="/privacy" className="hover:text-slate-900">
            Privacy Policy
          </Link>
          <Link to="/terms" className="hover:text-slate-900">
            Terms of Service
          </Link>
        </nav>
      </div>
    </footer>
  );
}
