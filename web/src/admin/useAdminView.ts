import type { AdminPeriod } from "@sd/contracts";
import { useCallback } from "react";
import { useSearchParams } from "react-router";
import { ADMIN_PERIOD_PARAM, ADMIN_TAB_PARAM, periodFromParam, tabFromParam, type AdminTab } from "./view-state";

/**
 * The open tab and the one chosen period, read from and written to the URL. Written with
 * `replace`: switching tabs or periods does not fill the Back button's history.
 */
export function useAdminView() {
  const [params, setParams] = useSearchParams();
  const tab = tabFromParam(params.get(ADMIN_TAB_PARAM));
  const period = periodFromParam(params.get(ADMIN_PERIOD_PARAM));
  const set = useCallback(
    (name: string, value: string) =>
      setParams(
        (previous) => {
          const next = new URLSearchParams(previous);
          next.set(name, value);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  const setTab = useCallback((next: AdminTab) => set(ADMIN_TAB_PARAM, next), [set]);
  const setPeriod = useCallback((next: AdminPeriod) => set(ADMIN_PERIOD_PARAM, next), [set]);
  return { tab, period, setTab, setPeriod };
}
