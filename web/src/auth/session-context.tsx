import type { AuthTokens, AuthUser } from "@sd/contracts";
import { createContext, useContext, useEffect, useMemo, useState, useSyncExternalStore, type ReactNode } from "react";
import type { AuthorizationSource } from "../api/authorized";
import { toast } from "../ui/toast";
import { logoutOnServer, refreshTokens } from "./auth-api";
import { AUTH_STATE_CHANGED, EXPIRY_CHECK_INTERVAL_MS, isAuthenticated, SESSION_EXPIRED_NOTICE, SESSION_STORAGE_KEYS } from "./session";
import { SessionController } from "./session-controller";

const SessionContext = createContext<SessionController | null>(null);

/** The Web Lock the tabs of one browser take turns on to refresh their shared tokens. */
const REFRESH_LOCK = "smart-decision-token-refresh";

/**
 * Runs the task under the refresh lock. Without the Web Locks API (a page served over plain HTTP
 * from a host other than localhost is not a secure context) it runs at once; the controller still
 * adopts tokens another tab stored first.
 */
function oneTabAtATime<T>(task: () => Promise<T>): Promise<T> {
  return "locks" in navigator ? navigator.locks.request(REFRESH_LOCK, task) : task();
}

const isSessionKey = (key: string | null): boolean => key === null || Object.values<string>(SESSION_STORAGE_KEYS).includes(key);

function browserSession(): SessionController {
  return new SessionController({
    storage: window.localStorage,
    now: () => Date.now(),
    refreshTokens,
    logoutOnServer,
    announce: () => window.dispatchEvent(new Event(AUTH_STATE_CHANGED)),
    onExpired: () => toast.info(SESSION_EXPIRED_NOTICE),
    oneTabAtATime,
  });
}

/**
 * The one session of the app: loads it from storage on start, reloads it on `authStateChanged`
 * and when another tab changes it (a refresh, a sign-in or out there holds here too), and checks
 * the access token's expiry every 60 seconds and whenever the tab is shown again (timers sleep
 * with the laptop).
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [controller] = useState(browserSession);
  useEffect(() => {
    controller.load();
    const reload = () => controller.load();
    const reloadFromOtherTab = (event: StorageEvent) => {
      if (event.storageArea === window.localStorage && isSessionKey(event.key)) controller.load();
    };
    const checkWhenShown = () => {
      if (document.visibilityState === "visible") controller.checkExpiry();
    };
    window.addEventListener(AUTH_STATE_CHANGED, reload);
    window.addEventListener("storage", reloadFromOtherTab);
    document.addEventListener("visibilitychange", checkWhenShown);
    const timer = window.setInterval(() => controller.checkExpiry(), EXPIRY_CHECK_INTERVAL_MS);
    return () => {
      window.removeEventListener(AUTH_STATE_CHANGED, reload);
      window.removeEventListener("storage", reloadFromOtherTab);
      document.removeEventListener("visibilitychange", checkWhenShown);
      window.clearInterval(timer);
    };
  }, [controller]);
  return <SessionContext.Provider value={controller}>{children}</SessionContext.Provider>;
}

function useSessionController(): SessionController {
  const controller = useContext(SessionContext);
  if (!controller) throw new Error("useSession must be used inside SessionProvider");
  return controller;
}

export interface Session {
  /** True until storage has been read. */
  loading: boolean;
  user: AuthUser | null;
  tokens: AuthTokens | null;
  /** Signed in with an access token that has not expired. */
  authenticated: boolean;
  /** The last session ended because it expired. */
  expired: boolean;
  signIn(user: AuthUser, tokens: AuthTokens): void;
  /** Ends the session on the server, then here (whether or not the server answered). */
  logout(): Promise<void>;
}

export function useSession(): Session {
  const controller = useSessionController();
  const state = useSyncExternalStore(controller.subscribe, controller.getState);
  return useMemo(
    () => ({
      loading: state.status === "loading",
      user: state.user,
      tokens: state.tokens,
      authenticated: isAuthenticated(state, Date.now()),
      expired: state.expired,
      signIn: (user: AuthUser, tokens: AuthTokens) => controller.signIn(user, tokens),
      logout: () => controller.logout(),
    }),
    [state, controller],
  );
}

/**
 * The session as authorized requests use it (api/authorized.ts): the valid access token, and one
 * shared refresh. The object is stable for the app's life.
 */
export function useAuthorization(): AuthorizationSource {
  return useSessionController();
}
