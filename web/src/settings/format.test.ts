import { describe, expect, it } from "vitest";
import { API_KEY_MESSAGES, FREE_TIER } from "@sd/contracts";
import {
  checkNewKey,
  checkSpendLimit,
  formatAllowance,
  formatCost,
  formatKeyMonth,
  formatKeyTime,
  keyTimeParts,
  formatMegabytes,
  formatRequests,
  formatStorage,
  organizationLabel,
  spendLimitState,
  usageShare,
} from "./format";

describe("Limits figures", () => {
  it("shows API requests as 'N / 1,000' with thousands separators", () => {
    expect(formatRequests(0, FREE_TIER.apiRequestsPerMonth)).toBe("0 / 1,000");
    expect(formatRequests(7, 1000)).toBe("7 / 1,000");
    expect(formatRequests(1000, 1000)).toBe("1,000 / 1,000");
    expect(formatRequests(12_345, 100_000)).toBe("12,345 / 100,000");
  });

  it("shows storage as 'X MB / 1 GB', and a little storage never as nothing", () => {
    expect(formatStorage(0, FREE_TIER.storageBytes)).toBe("0 MB / 1 GB");
    expect(formatMegabytes(1)).toBe("<0.01 MB");
    expect(formatMegabytes(10_486)).toBe("0.01 MB");
    expect(formatMegabytes(1024 ** 2)).toBe("1 MB");
    expect(formatMegabytes(1.5 * 1024 ** 2)).toBe("1.5 MB");
    expect(formatMegabytes(1234.567 * 1024 ** 2)).toBe("1,234.57 MB");
    expect(formatStorage(3 * 1024 ** 2, FREE_TIER.storageBytes)).toBe("3 MB / 1 GB");
  });

  it("words an allowance in gigabytes when it is whole ones, else in megabytes", () => {
    expect(formatAllowance(1024 ** 3)).toBe("1 GB");
    expect(formatAllowance(5 * 1024 ** 3)).toBe("5 GB");
    expect(formatAllowance(512 * 1024 ** 2)).toBe("512 MB");
  });

  it("fills a bar by the share used, never past full and never below empty", () => {
    expect(usageShare(0, 1000)).toBe(0);
    expect(usageShare(250, 1000)).toBe(0.25);
    expect(usageShare(1000, 1000)).toBe(1);
    expect(usageShare(1500, 1000)).toBe(1);
    expect(usageShare(5, 0)).toBe(0);
    expect(usageShare(-1, 1000)).toBe(0);
  });
});

describe("API key table cells", () => {
  it("shows cost in dollars with up to 4 decimals, and a fraction of a cent as more than nothing", () => {
    expect(formatCost(0)).toBe("$0.00");
    expect(formatCost(1.5)).toBe("$1.50");
    expect(formatCost(0.0123)).toBe("$0.0123");
    expect(formatCost(0.000_15)).toBe("$0.0002");
    expect(formatCost(0.000_01)).toBe("<$0.0001");
    expect(formatCost(1234.5)).toBe("$1,234.50");
  });

  it("shows a key never used as 'Never', an invalid time as 'Unknown time', else the local time", () => {
    expect(formatKeyTime(null)).toBe("Never");
    expect(formatKeyTime("not a time")).toBe("Unknown time");
    expect(formatKeyTime("2025-03-04T05:06:00.000Z", "en-US", "UTC")).toBe("Mar 4, 2025, 5:06 AM");
  });

  it("splits a key's time into its date and its time of day, in the viewer's zone", () => {
    expect(keyTimeParts("2025-03-04T05:06:00.000Z", "en-US", "UTC")).toEqual({ date: "Mar 4, 2025", time: "5:06 AM" });
    expect(keyTimeParts("2025-03-04T23:30:00.000Z", "en-US", "Asia/Tokyo")).toEqual({ date: "Mar 5, 2025", time: "8:30 AM" });
    expect(keyTimeParts(null)).toEqual({ date: "Never", time: null });
    expect(keyTimeParts("yesterday-ish")).toEqual({ date: "Unknown time", time: null });
  });

  it("labels the organization after the user's display name", () => {
    expect(organizationLabel({ name: "Ada Lovelace", email: "ada@example.com" })).toBe("Ada Lovelace's Organization");
    expect(organizationLabel({ name: null, email: "grace@example.com" })).toBe("grace's Organization");
    expect(organizationLabel({ name: " ", email: "@example.com" })).toBe("User's Organization");
  });
});

describe("the Create Key form", () => {
  it("trims the name and sends the workspace, 'Default' when left empty", () => {
    expect(checkNewKey("  CI pipeline  ", "")).toEqual({ ok: true, body: { name: "CI pipeline", workspace: "Default" } });
    expect(checkNewKey("CI", "  Staging ")).toEqual({ ok: true, body: { name: "CI", workspace: "Staging" } });
  });

  it("refuses a blank name with 'API key name is required'", () => {
    expect(checkNewKey("", "Default")).toEqual({ ok: false, field: "name", error: API_KEY_MESSAGES.nameRequired });
    expect(checkNewKey(" \t ", "Default")).toEqual({ ok: false, field: "name", error: API_KEY_MESSAGES.nameRequired });
  });

  it("refuses a name or workspace the server would refuse as too long, naming the field", () => {
    expect(checkNewKey("x".repeat(101), "Default")).toMatchObject({ ok: false, field: "name" });
    expect(checkNewKey("CI", "w".repeat(101))).toMatchObject({ ok: false, field: "workspace" });
    expect(checkNewKey("x".repeat(100), "w".repeat(100)).ok).toBe(true);
  });
});

describe("a key's month and its spend limit", () => {
  it("shows this month's spend and calls under the key's cost", () => {
    expect(formatKeyMonth({ spend_this_month_usd: 0, requests_this_month: 0 })).toBe("$0.00 this month · 0 calls");
    expect(formatKeyMonth({ spend_this_month_usd: 0.0131, requests_this_month: 1 })).toBe("$0.0131 this month · 1 call");
    expect(formatKeyMonth({ spend_this_month_usd: 12.5, requests_this_month: 1234 })).toBe("$12.50 this month · 1,234 calls");
  });

  it("says the limit is reached exactly when the server refuses: spend at or over it", () => {
    expect(spendLimitState({ spend_this_month_usd: 9, monthly_spend_limit_usd: null })).toBe("none");
    expect(spendLimitState({ spend_this_month_usd: 4.99, monthly_spend_limit_usd: 5 })).toBe("within");
    expect(spendLimitState({ spend_this_month_usd: 5, monthly_spend_limit_usd: 5 })).toBe("reached");
    expect(spendLimitState({ spend_this_month_usd: 5.01, monthly_spend_limit_usd: 5 })).toBe("reached");
  });

  it("reads the limit field as dollars, rounded to cents, and refuses what the server would with its text", () => {
    expect(checkSpendLimit("5")).toEqual({ ok: true, limitUsd: 5 });
    expect(checkSpendLimit(" $12.345 ")).toEqual({ ok: true, limitUsd: 12.35 });
    expect(checkSpendLimit("1,000")).toEqual({ ok: true, limitUsd: 1000 });
    expect(checkSpendLimit(".5")).toEqual({ ok: true, limitUsd: 0.5 });
    for (const text of ["", "0", "0.001", "-5", "abc", "5 dollars", "1e3", "2000000"]) {
      expect(checkSpendLimit(text), text).toEqual({ ok: false, error: API_KEY_MESSAGES.spendLimitInvalid });
    }
  });
});
