import type { AuthUser } from "@sd/contracts";
import { ChevronDown, KeyRound, LayoutDashboard, LogOut, ShieldCheck, SquareTerminal, type LucideIcon } from "lucide-react";
import { useEffect, useId, useRef, useState, type FocusEvent, type KeyboardEvent } from "react";
import { Link } from "react-router";
import { initials, menuName } from "./session";
import { useAdminCheck } from "./useAdminCheck";

interface MenuLink {
  to: string;
  label: string;
  icon: LucideIcon;
}

const LINKS: readonly MenuLink[] = [
  { to: "/console", label: "Console", icon: SquareTerminal },
  { to: "/dashboard", label: "Dashboard", icon: LayoutDashboard },
  { to: "/settings", label: "API Settings", icon: KeyRound },
];
const ADMIN_LINK: MenuLink = { to: "/admin", label: "Admin Dashboard", icon: ShieldCheck };

const itemClass =
  "flex w-full items-center gap-3 rounded-lg px-3 py-2 text-left text-sm font-medium text-slate-700 hover:bg-slate-100 focus:bg-slate-100";

/** The avatar: the user's initials in a circle. */
function Avatar({ user }: { user: AuthUser }) {
  return (
    <span aria-hidden className="grid size-8 shrink-0 place-items-center rounded-full bg-brand-600 text-sm font-semibold text-white">
      {initials(user)}
    </span>
  );
}

type FocusTarget = "first" | "last";

/**
 * The signed-in header's avatar menu (a WAI-ARIA menu button): the name (or 'User') and email, links
 * to Console, Dashboard, API Settings and, for admins, Admin Dashboard, and Log out.
 * Enter, Space or the arrow keys open it; arrows, Home and End move; Escape closes it.
 */
export function AccountMenu({ user, onLogout }: { user: AuthUser; onLogout: () => void }) {
  const { isAdmin } = useAdminCheck();
  const [open, setOpen] = useState(false);
  const focusOnOpen = useRef<FocusTarget>("first");
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const id = useId();
  const ids = { button: `${id}-button`, menu: `${id}-menu`, identity: `${id}-identity` };
  const links = isAdmin ? [...LINKS, ADMIN_LINK] : LINKS;

  const items = () => Array.from(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);
  const focusItem = (index: number) => {
    const all = items();
    all[(index + all.length) % all.length]?.focus();
  };

  useEffect(() => {
    if (!open) return;
    focusItem(focusOnOpen.current === "first" ? 0 : -1);
    // A press anywhere else closes it.
    const closeOnOutsidePress = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node | null)) setOpen(false);
    };
    document.addEventListener("pointerdown", closeOnOutsidePress);
    return () => document.removeEventListener("pointerdown", closeOnOutsidePress);
  }, [open]);

  const openMenu = (target: FocusTarget) => {
    focusOnOpen.current = target;
    setOpen(true);
  };
  const close = (returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) button.current?.focus();
  };

  const onButtonKeyDown = (event: KeyboardEvent) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      openMenu(event.key === "ArrowDown" ? "first" : "last");
    }
  };

  const onMenuKeyDown = (event: KeyboardEvent) => {
    const current = items().indexOf(document.activeElement as HTMLElement);
    const moves: Record<string, () => void> = {
      ArrowDown: () => focusItem(current + 1),
      ArrowUp: () => focusItem(current < 0 ? -1 : current - 1),
      Home: () => focusItem(0),
      End: () => focusItem(-1),
      Escape: () => close(true),
    };
    const move = moves[event.key];
    if (move) {
      event.preventDefault();
      move();
    } else if (event.key === "Tab") {
      setOpen(false);
    }
  };

  // Focus moving to something outside (Tab, a screen reader's virtual cursor) closes it.
  const onBlur = (event: FocusEvent) => {
    const next = event.relatedTarget as Node | null;
    if (next && !root.current?.contains(next)) setOpen(false);
  };

  return (
    <div ref={root} className="relative" onBlur={onBlur}>
      <button
        ref={button}
        id={ids.button}
        type="button"
        aria-label="Account menu"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? ids.menu : undefined}
        onClick={() => (open ? close(false) : openMenu("first"))}
        onKeyDown={onButtonKeyDown}
        className="flex items-center gap-1 rounded-full p-1 text-slate-600 hover:bg-slate-100"
      >
        <Avatar user={user} />
        <ChevronDown aria-hidden className="size-4" />
      </button>
      {open ? (
        <div className="absolute top-full right-0 z-40 mt-2 w-72 max-w-[calc(100vw-2rem)] rounded-xl border border-slate-200 bg-white p-2 shadow-lg">
          <div id={ids.identity} className="mb-1 flex items-center gap-3 border-b border-slate-100 px-3 pt-1 pb-3">
            <Avatar user={user} />
            <div className="min-w-0">
              <p className="font-medium text-slate-900">{menuName(user)}</p>
              <p className="text-sm break-all text-slate-600">{user.email}</p>
            </div>
          </div>
          <div ref={menu} id={ids.menu} role="menu" aria-labelledby={ids.button} aria-describedby={ids.identity} onKeyDown={onMenuKeyDown}>
            {links.map(({ to, label, icon: Icon }) => (
              <Link key={to} to={to} role="menuitem" tabIndex={-1} className={itemClass} onClick={() => setOpen(false)}>
                <Icon aria-hidden className="size-4 text-slate-500" />
                {label}
              </Link>
            ))}
            <div role="separator" className="my-1 border-t border-slate-100" />
            <button
              type="button"
              role="menuitem"
              tabIndex={-1}
              className={itemClass}
              onClick={() => {
                setOpen(false);
                onLogout();
              }}
            >
              <LogOut aria-hidden className="size-4 text-slate-500" />
              Log out
            </button>
          </div>
        </div>
      ) : null}
    </div>
  );
}
