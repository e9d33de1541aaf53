import { describe, expect, it } from "vitest";
import { ADMIN_TABS, periodFromParam, sourcePeriods, tabFromParam, tabSource } from "./view-state";

describe("the admin page's view in the URL", () => {
  it("opens the tab named in ?tab=, and Overview for none or an unknown one", () => {
    expect(ADMIN_TABS.map((tab) => tab.label)).toEqual(["Overview", "Trends", "Users", "Recent Activity", "System Health"]);
    expect(tabFromParam("recent")).toBe("recent");
    expect(tabFromParam("health")).toBe("health");
    expect(tabFromParam(null)).toBe("overview");
    expect(tabFromParam("toString")).toBe("overview");
    expect(tabFromParam("Recent")).toBe("overview");
  });

  it("reads the one chosen period from ?period=, ignoring anything else", () => {
    expect(periodFromParam("week")).toBe("week");
    expect(periodFromParam(null)).toBeNull();
    expect(periodFromParam("year")).toBeNull();
  });

  it("asks every endpoint for the chosen period, or each for the specification's default", () => {
    expect(sourcePeriods(null)).toEqual({ "usage-stats": "month", "recent-decisions": "day", "system-health": "day" });
    expect(sourcePeriods("week")).toEqual({ "usage-stats": "week", "recent-decisions": "week", "system-health": "week" });
  });

  it("refreshes the endpoint a tab shows", () => {
    expect(["overview", "trends", "users", "recent", "health"].map((tab) => tabSource(tabFromParam(tab)))).toEqual([
      "usage-stats",
      "usage-stats",
      "usage-stats",
      "recent-decisions",
      "system-health",
    ]);
  });
});
