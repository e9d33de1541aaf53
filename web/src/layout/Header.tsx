import { Menu, X } from "lucide-react";
import { useState } from "react";
import { Link, NavLink, useLocation } from "react-router";
import { AccountMenu } from "../auth/AccountMenu";
import { useSession } from "../auth/session-context";
import { useSignIn } from "../auth/sign-in-context";
import { Button } from "../ui/button";
import { cn } from "../ui/cn";

const NAV = [
  { to: "/sd-api", label: "API" },
  { to: "/developers", label: "Developers" },
  { to: "/careers", label: "Careers" },
  // The demo is the playground: a visitor who asks for it gets it at once, not the console's cards.
  { to: "/playground", label: "Demo" },
  { to: "/contact", label: "Contact" },
] as const;

export function Header() {
  const { openSignIn } = useSignIn();
  const session = useSession();
  // Until storage has been read, neither the sign-in buttons nor the avatar menu (no flash of the wrong one).
  const signedOut = !session.loading && !session.authenticated;
  const { pathname } = useLocation();
  // The mobile menu is open for the page it was opened on: any navigation closes it.
  const [menuOpenOn, setMenuOpenOn] = useState<string | null>(null);
  const menuOpen = menuOpenOn === pathname;
  const closeMenu = () => setMenuOpenOn(null);
  const signIn = () => {
    closeMenu();
    openSignIn();
  };
  const link = ({ isActive }: { isActive: boolean }) =>
    cn("rounded-md px-3 py-2 text-sm font-medium", isActive ? "text-brand-700" : "text-slate-600 hover:text-slate-900");

  const signInActions = signedOut ? (
    <>
      <Button variant="ghost" onClick={signIn}>
        Sign In
      </Button>
      <Button onClick={signIn}>Get Started</Button>
    </>
  ) : null;

  return (
    <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/90 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-4 px-4">
        <Link to="/" className="flex items-center gap-2 text-lg font-bold text-slate-900" aria-label="Smart Decision home">
          <span aria-hidden className="grid size-8 place-items-center rounded-lg bg-brand-600 text-white">
            SD
          </span>
          <span>Smart Decision</span>
        </Link>
        <nav aria-label="Main" className="hidden items-center gap-1 md:flex">
          {NAV.map((item) => (
            <NavLink key={item.to} to={item.to} className={link}>
              {item.label}
            </NavLink>
          ))}
        </nav>
        <div className="flex items-center gap-2">
          <div className="hidden items-center gap-2 md:flex">{signInActions}</div>
          {session.authenticated && session.user ? <AccountMenu user={session.user} onLogout={() => void session.logout()} /> : null}
          <button
            type="button"
            className="rounded-md p-2 text-slate-700 md:hidden"
            aria-label={menuOpen ? "Close menu" : "Open menu"}
            aria-expanded={menuOpen}
            aria-controls="mobile-menu"
            onClick={() => setMenuOpenOn(menuOpen ? null : pathname)}
          >
            {menuOpen ? <X className="size-6" aria-hidden /> : <Menu className="size-6" aria-hidden />}
          </button>
        </div>
      </div>
      {menuOpen ? (
        <div id="mobile-menu" className="border-t border-slate-200 px-4 pb-4 md:hidden">
          <nav aria-label="Mobile" className="flex flex-col py-2">
            {NAV.map((item) => (
              <NavLink key={item.to} to={item.to} className={link} onClick={closeMenu}>
                {item.label}
              </NavLink>
            ))}
          </nav>
          {signInActions ? <div className="flex gap-2">{signInActions}</div> : null}
        </div>
      ) : null}
    </header>
  );
}
