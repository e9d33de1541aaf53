import type { Page, Request } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ADMIN_MESSAGES,
  ADMIN_SOCKET_EVENTS,
  AGGREGATE_QUEUE,
  SystemHealthSchema,
  type AuthResponse,
  type StoredDecision,
  type SystemHealth,
} from "@sd/contracts";
import { callApi, signInByMail, SmtpCapture, startStack, storedDecision, testEnv, type InProcessStack } from "@sd/testing";
import { browserUnavailable, DESKTOP, MOBILE, overflowingElements } from "./support/browser-app";
import { expiredAccessToken, openAs, useHistoryApp } from "./support/history-app";

/**
 * /admin in Chromium against the real stack: an admin signed in by magic link (listed in
 * ADMIN_EMAILS), decisions seeded at exact times so every tab's figures are known, the one period
 * picker and the open tab kept in the URL, the live room fed by decisions run over HTTP (the counts
 * follow without Refresh), and the queue view in a new tab; a second stack without provider
 * workers for the 'System Status' banner. At 375 and 1280 px.
 */

const ADMIN_EMAIL = "admin.e2e@example.com";
const SIGN_IN_DIALOG = "Sign in to Smart Decision";

const app = useHistoryApp({ ADMIN_EMAILS: ADMIN_EMAIL });
/** Where screenshots go when set (e.g. ADMIN_SCREENSHOTS=/tmp/shots). */
const shots = process.env.ADMIN_SCREENSHOTS;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

let admin: AuthResponse;
let seededAt: number;
const seeded: Record<string, StoredDecision> = {};

/** Every request the page makes to the admin endpoints, recorded from now on. */
function adminRequests(page: Page): Request[] {
  const seen: Request[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname.startsWith("/api/admin/")) seen.push(request);
  });
  return seen;
}
/** Resolves at the first live throughput frame the page receives: its socket is then in the admin room. */
function firstThroughput(page: Page): Promise<void> {
  return new Promise((resolve) => {
    page.on("websocket", (socket) =>
      socket.on("framereceived", (frame) => {
        if (String(frame.payload).includes(ADMIN_SOCKET_EVENTS.throughput)) resolve();
      }),
    );
  });
}
const periodsAsked = (requests: Request[], endpoint: string) =>
  requests.filter((request) => new URL(request.url()).pathname === `/api/admin/${endpoint}`).map((request) => new URL(request.url()).searchParams.get("period"));

const tab = (page: Page, name: string) => page.getByRole("tab", { name, exact: true });
const region = (page: Page, name: string) => page.getByRole("region", { name, exact: true });
const statValue = (page: Page, card: string) => region(page, card).getByTestId("stat-value");
const periodPicker = (page: Page) => page.getByLabel("Period", { exact: true });
const searchParam = (page: Page, name: string) => new URL(page.url()).searchParams.get(name);

async function openDashboard(page: Page): Promise<void> {
  await openAs(page, admin, "/admin");
  await page.getByRole("heading", { level: 1, name: "Admin Dashboard" }).waitFor();
  await statValue(page, "Total Decisions").filter({ hasNotText: "—" }).waitFor();
}

/** The system health the server reports for `period`, to compare the page with. */
async function serverHealth(period: string, auth = admin, url = app.url): Promise<SystemHealth> {
  const answer = await callApi(url, `/api/admin/system-health?period=${period}`, auth.tokens.access_token);
  expect(answer.status, answer.text).toBe(200);
  return SystemHealthSchema.parse(answer.body);
}

const capitalized = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
const TONE = { healthy: "green", warning: "yellow", critical: "red" } as const;

beforeAll(async () => {
  if (browserUnavailable) return;
  admin = await app.signInAs(ADMIN_EMAIL);
  seededAt = Date.now();
  // Half a minute past the mark, so the relative times stay put while the tests run.
  const at = (ago: number) => new Date(seededAt - ago - 30_000);
  const decisions: Record<string, StoredDecision> = {
    annRecent: storedDecision({
      user_id: "user-ann",
      user_email: "ann@example.com",
      user_ip: "192.0.2.1",
      question: "Ship the release today?",
      timestamp: at(10 * MINUTE),
      categories: ["Yes", "No", "Maybe", "Later", "Never"],
      final_decision: "Yes",
      processing_time_ms: 400,
      error_details: {},
    }),
    annEarlier: storedDecision({
      user_id: "user-ann",
      user_email: "ann@example.com",
      user_ip: "192.0.2.1",
      question: "Hire a second designer?",
      timestamp: at(3 * HOUR),
      categories: ["Yes", "No"],
      final_decision: "Yes",
      processing_time_ms: 600,
      error_details: {},
    }),
    bobFailed: storedDecision({
      user_id: "user-bob",
      user_email: "bob@example.com",
      user_ip: "192.0.2.2",
      question: "Move the offsite to May?",
      timestamp: at(2 * DAY),
      categories: ["Yes", "No"],
      final_decision: "No",
      processing_time_ms: 1000,
      error_details: { claude: "Rate limited" },
    }),
    anonymousFailed: storedDecision({
      user_id: null,
      user_ip: "198.51.100.7",
      question: "Tea or coffee?",
      timestamp: at(30 * MINUTE),
      categories: ["Tea", "Coffee"],
      final_decision: null,
      processing_time_ms: 2000,
      error_details: { openai: "" },
    }),
    anonymousOld: storedDecision({
      user_id: null,
      user_ip: "198.51.100.7",
      question: "Paint it blue?",
      timestamp: at(20 * DAY),
      categories: ["Yes", "No", "Maybe"],
      final_decision: "Maybe",
      processing_time_ms: 1000,
      error_details: {},
    }),
    outsideMonth: storedDecision({
      user_id: null,
      user_ip: "203.0.113.9",
      question: "Last quarter's question",
      timestamp: at(40 * DAY),
      final_decision: "Go",
      processing_time_ms: 9000,
      error_details: {},
    }),
  };
  for (const [name, decision] of Object.entries(decisions)) {
    if (!(await app.stack.store.decisions.insertOnce(decision))) throw new Error(`decision ${decision.id} was already stored`);
    seeded[name] = decision;
  }
});

describe.skipIf(browserUnavailable)("admin: who may see the dashboard", () => {
  it("asks a signed-out visitor to sign in and asks the admin endpoints nothing (375 and 1280 px)", async () => {
    for (const viewport of [MOBILE, DESKTOP]) {
      const page = await app.newPage(viewport);
      const requests = adminRequests(page);
      await page.goto("/admin");
      const alert = page.getByRole("alert").filter({ hasText: ADMIN_MESSAGES.signInPrompt });
      await alert.waitFor();
      expect(await overflowingElements(page)).toEqual([]);
      await alert.getByRole("button", { name: "Sign in", exact: true }).click();
      await page.getByRole("dialog", { name: SIGN_IN_DIALOG }).waitFor();
      expect(requests).toHaveLength(0);
    }
  });

  it("treats an expired session as signed out, with 'Sign in again'", async () => {
    const page = await app.newPage(MOBILE);
    const requests = adminRequests(page);
    // Expired for good: the access token's time is up and the server refuses the refresh token (a valid one is used silently).
    await openAs(page, { user: admin.user, tokens: { ...admin.tokens, access_token: expiredAccessToken(), refresh_token: "refused-refresh-token" } }, "/admin");
    const alert = page.getByRole("alert").filter({ hasText: ADMIN_MESSAGES.signInPrompt });
    await alert.getByRole("button", { name: "Sign in again" }).click();
    await page.getByRole("dialog", { name: SIGN_IN_DIALOG }).waitFor();
    expect(requests).toHaveLength(0);
  });

  it("tells a signed-in user who is not an admin so, instead of showing an empty dashboard (375 and 1280 px)", async () => {
    const user = await app.signInAs(`not-admin.${Date.now()}@example.com`);
    // The server refuses them too: the page's check is not the only guard.
    expect((await callApi(app.url, "/api/admin/usage-stats", user.tokens.access_token)).status).toBe(403);
    for (const viewport of [MOBILE, DESKTOP]) {
      const page = await app.newPage(viewport);
      const requests = adminRequests(page);
      await openAs(page, user, "/admin");
      const alert = page.getByRole("alert").filter({ hasText: ADMIN_MESSAGES.notAdmin });
      await alert.getByText("Not an admin", { exact: true }).waitFor();
      await alert.getByText(`Signed in as ${user.user.email}`).waitFor();
      expect(await tab(page, "Overview").count()).toBe(0);
      expect(await overflowingElements(page)).toEqual([]);
      expect(requests).toHaveLength(0);
    }
  });
});

describe.skipIf(browserUnavailable)("admin: the dashboard's figures", () => {
  it("shows the month's cards and panels by default, fetching the three endpoints in parallel (1280 and 375 px)", async () => {
    for (const viewport of [DESKTOP, MOBILE]) {
      const page = await app.newPage(viewport);
      const requests = adminRequests(page);
      await openDashboard(page);
      expect(periodsAsked(requests, "usage-stats")).toEqual(["month"]);
      expect(periodsAsked(requests, "recent-decisions")).toEqual(["day"]);
      expect(periodsAsked(requests, "system-health")).toEqual(["day"]);
      await expect.poll(() => periodPicker(page).inputValue()).toBe("month");
      expect(await periodPicker(page).locator("option").allTextContents()).toEqual(["Last Day", "Last Week", "Last Month"]);
      // One period picker for the whole page, whichever tab is open.
      for (const name of ["Overview", "Trends", "Users", "Recent Activity", "System Health"]) {
        await tab(page, name).click();
        expect(await page.getByRole("combobox").count(), name).toBe(1);
      }
      await tab(page, "Overview").click();
      await page.getByTestId("last-updated").filter({ hasText: /Last updated: \d/ }).waitFor();

      // Five decisions in the last 30 days (the 40-day-old one is out): two in the last hour,
      // two errored (bob's and the anonymous one), three with results.
      expect(await statValue(page, "Total Decisions").textContent()).toBe("5");
      await region(page, "Total Decisions").getByText("2 in the last hour").waitFor();
      expect(await statValue(page, "Error Rate").textContent()).toBe("40%");
      await region(page, "Error Rate").getByText("2 failed decisions").waitFor();
      // ann and bob, plus three IPs (ann's, bob's and the anonymous visitor's).
      expect(await statValue(page, "Total Users").textContent()).toBe("5");
      await region(page, "Total Users").getByText("2 authenticated + 3 anonymous (unique IPs)").waitFor();
      // (400 + 600 + 1000 + 2000 + 1000) / 5 ms; 5 s in all.
      expect(await statValue(page, "Avg Processing Time").textContent()).toBe("1,000ms");
      await region(page, "Avg Processing Time").getByText("0.1 min total").waitFor();

      const auth = region(page, "Authentication Usage");
      await auth.getByText("3 (60%)").waitFor();
      await auth.getByText("2 (40%)").waitFor();
      const success = region(page, "Decision Success Rate");
      await success.locator("li", { hasText: "Successful" }).getByText("3 (60%)").waitFor();
      await success.locator("li", { hasText: "Failed" }).getByText("2 (40%)").waitFor();
      expect(await region(page, "Top Categories").locator("li").allInnerTexts()).toEqual(["Yes\n2", "Maybe\n1", "No\n1"]);
      expect(await overflowingElements(page)).toEqual([]);
    }
  });

  it("asks again with the chosen period and shows its figures, keeping it in the URL for every tab; Refresh asks again", async () => {
    const page = await app.newPage(DESKTOP);
    const requests = adminRequests(page);
    await openDashboard(page);
    await periodPicker(page).selectOption("week");
    await statValue(page, "Total Decisions").filter({ hasText: /^4$/ }).waitFor();
    expect(await statValue(page, "Error Rate").textContent()).toBe("50%");
    expect(searchParam(page, "period")).toBe("week");
    await periodPicker(page).selectOption("day");
    await statValue(page, "Total Decisions").filter({ hasText: /^3$/ }).waitFor();
    expect(await statValue(page, "Error Rate").textContent()).toBe("33.33%");
    expect(periodsAsked(requests, "usage-stats")).toEqual(["month", "week", "day"]);
    expect(searchParam(page, "period")).toBe("day");

    const before = requests.length;
    await page.getByRole("button", { name: "Refresh" }).click();
    await expect.poll(() => requests.length - before).toBe(3);
    expect(periodsAsked(requests.slice(before), "usage-stats")).toEqual(["day"]);

    // The week chosen on Recent Activity is the period of every tab, and a reload (or a shared link) keeps tab and period.
    await tab(page, "Recent Activity").click();
    await periodPicker(page).selectOption("week");
    await region(page, "Recent Activity").getByText("Move the offsite to May?").waitFor();
    expect([searchParam(page, "tab"), searchParam(page, "period")]).toEqual(["recent", "week"]);
    await page.reload();
    await region(page, "Recent Activity").getByText("Move the offsite to May?").waitFor();
    expect(await tab(page, "Recent Activity").getAttribute("aria-selected")).toBe("true");
    await expect.poll(() => periodPicker(page).inputValue()).toBe("week");
    await tab(page, "Overview").click();
    await statValue(page, "Total Decisions").filter({ hasText: /^4$/ }).waitFor();
    expect(periodsAsked(requests, "system-health").at(-1)).toBe("week");
  });

  it("shows the last 7 days as bars on Trends (375 px)", async () => {
    const page = await app.newPage(MOBILE);
    await openDashboard(page);
    await tab(page, "Trends").click();
    // The seeded decisions per UTC day, over the 7 UTC days ending today.
    const today = Math.floor(Date.now() / DAY) * DAY;
    const expected = Array.from({ length: 7 }, (_, index) => {
      const start = today - (6 - index) * DAY;
      const count = Object.values(seeded).filter((decision) => decision.timestamp.getTime() >= start && decision.timestamp.getTime() < start + DAY).length;
      return `${new Date(start).toISOString().slice(0, 10)}: ${count}`;
    });
    const bars = page.getByRole("list", { name: "Decisions per day" }).getByRole("listitem");
    await bars.first().waitFor();
    expect(await bars.evaluateAll((items) => items.map((item) => item.getAttribute("aria-label")))).toEqual(expected);
    expect(await overflowingElements(page)).toEqual([]);
  });

  it("lists active users and anonymous IPs on Users (375 px)", async () => {
    const page = await app.newPage(MOBILE);
    await openDashboard(page);
    await tab(page, "Users").click();
    const users = region(page, "Active Users").locator("li");
    await users.first().waitFor();
    expect((await users.allInnerTexts()).map((text) => text.replace(/\n+/g, "\n"))).toEqual([
      "ann\nuser-ann\nAuthenticated\n2 decisions",
      "Anonymous\nanonymous\nAnonymous\n2 decisions",
      "bob\nuser-bob\nAuthenticated\n1 decision",
    ]);
    expect(await region(page, "Anonymous IPs").locator("li").allInnerTexts()).toEqual(["198.51.100.7\n2"]);
    expect(await overflowingElements(page)).toEqual([]);
  });

  it("lists recent activity for the day by default, and for the week when chosen (375 and 1280 px)", async () => {
    for (const viewport of [MOBILE, DESKTOP]) {
      const page = await app.newPage(viewport);
      const requests = adminRequests(page);
      await openDashboard(page);
      await tab(page, "Recent Activity").click();
      const panel = region(page, "Recent Activity");
      // No period chosen yet: the picker shows the day Recent Activity defaults to.
      await expect.poll(() => periodPicker(page).inputValue()).toBe("day");
      const items = panel.getByTestId("activity-item");
      await items.first().waitFor();
      expect(await items.count()).toBe(3);

      const first = items.nth(0);
      await first.getByText("Ship the release today?").waitFor();
      await first.getByText("ann@example.com").waitFor();
      await first.getByText(/^1[01]m ago$/).waitFor();
      await first.getByText("majority_voting").waitFor();
      await first.getByText("400ms").waitFor();
      expect(await first.getByTestId("activity-category").allTextContents()).toEqual(["Yes", "No", "Maybe"]);
      await first.getByText("+2 more").waitFor();
      await first.getByText("Decision:").waitFor();
      expect(await first.getByText("ERROR", { exact: true }).count()).toBe(0);

      const anonymous = items.nth(1);
      await anonymous.getByText("Tea or coffee?").waitFor();
      await anonymous.getByText("198.51.100.7").waitFor();
      await anonymous.getByText(/^3[01]m ago$/).waitFor();
      await anonymous.getByText("ERROR", { exact: true }).waitFor();
      await anonymous.getByText("No valid decision could be reached from any LLM provider").waitFor();

      await items.nth(2).getByText("Hire a second designer?").waitFor();
      await items.nth(2).getByText("3h ago").waitFor();
      expect(await overflowingElements(page)).toEqual([]);

      await periodPicker(page).selectOption("week");
      await items.nth(3).waitFor();
      const bob = items.nth(3);
      await bob.getByText("Move the offsite to May?").waitFor();
      await bob.getByText("bob@example.com").waitFor();
      await bob.getByText("2d ago").waitFor();
      await bob.getByText("ERROR", { exact: true }).waitFor();
      await bob.getByText("claude: Rate limited").waitFor();
      expect(periodsAsked(requests, "recent-decisions")).toEqual(["day", "week"]);
    }
  });

  it("shows system health for the day by default and for the chosen period, in the status colours", async () => {
    for (const viewport of [MOBILE, DESKTOP]) {
      const page = await app.newPage(viewport);
      const requests = adminRequests(page);
      await openDashboard(page);
      await tab(page, "System Health").click();
      const panel = region(page, "System Health");
      await expect.poll(() => periodPicker(page).inputValue()).toBe("day");
      const day = await serverHealth("day");
      const badge = panel.getByTestId("status-badge");
      await badge.waitFor();
      expect(await badge.textContent()).toBe(day.status);
      expect(await badge.getAttribute("data-tone")).toBe(TONE[day.status]);
      const metric = (label: string) => panel.locator("dt", { hasText: new RegExp(`^${label}$`) }).locator("xpath=following-sibling::dd");
      // The day: annRecent, anonymousFailed, annEarlier; two in the last hour; (400 + 2000 + 600) / 3 ms.
      expect(await metric("Decisions in period").textContent()).toBe("3");
      expect(await metric("Decisions in the last hour").textContent()).toBe("2");
      expect(await metric("Avg processing time").textContent()).toBe("1,000ms");
      expect(await metric("Period hours").textContent()).toBe("24");
      await panel.getByTestId("period-info").filter({ hasText: "Period: Last Day (24 hours)" }).waitFor();
      // Every check the server measured, Database and Activity first, each with its value and meaning.
      for (const [name, check] of Object.entries(day.health_checks)) {
        const title = name.split("_").map(capitalized).join(" ");
        const checkPanel = region(page, title);
        await checkPanel.getByText(check.message, { exact: true }).waitFor();
        expect(await checkPanel.getByTestId("status-badge").getAttribute("data-tone")).toBe(TONE[check.status]);
      }
      // The workers figure is the sum of the per-queue counts its line lists, never "0" beside "Every queue has a live worker".
      const workers = region(page, "Workers");
      const workersLine = await workers.getByText(/live worker/).textContent();
      expect(workersLine).toMatch(/^Every queue has a live worker \(.+\)$/);
      const listed = [...(workersLine ?? "").matchAll(/: (\d+)/g)].reduce((sum, match) => sum + Number(match[1]), 0);
      expect(listed).toBeGreaterThan(0);
      expect(await workers.getByTestId("check-value").textContent()).toBe(String(listed));
      const names = await page.getByRole("region").evaluateAll((regions) => regions.map((r) => r.getAttribute("aria-label")));
      expect(names.filter((name) => name === "Database" || name === "Activity")).toEqual(["Database", "Activity"]);
      expect(await overflowingElements(page)).toEqual([]);

      if (shots) await page.screenshot({ path: `${shots}/admin-health-${viewport.width}.png`, fullPage: true });
      await periodPicker(page).selectOption("week");
      await metric("Period hours").filter({ hasText: /^168$/ }).waitFor();
      expect(await metric("Decisions in period").textContent()).toBe("4");
      expect(periodsAsked(requests, "system-health")).toEqual(["day", "week"]);
    }
  });
});

describe.skipIf(browserUnavailable)("admin: live throughput and the queue view", () => {
  it("updates the live panel and the counts from the admin room while decisions run, without Refresh (375 px)", async () => {
    const page = await app.newPage(MOBILE);
    await openDashboard(page);
    const live = region(page, "Live Throughput");
    await live.getByText("Live", { exact: true }).waitFor();
    const before = Number(await statValue(page, "Total Decisions").textContent());
    const recentBefore = await region(page, "Total Decisions").getByText(/in the last hour$/).textContent();
    const questions = ["Lunch: pizza or salad?", "Deploy on Friday?", "Rename the project?"];
    for (const question of questions) {
      const answer = await callApi(app.url, "/api/ensembled-llm-categorical-decision", admin.tokens.access_token, { body: { question, categories: ["Yes", "No"] } });
      expect(answer.status, answer.text).toBe(200);
    }
    // Each of the three providers voted on each of the three decisions in the last minute.
    const table = live.getByRole("table", { name: "Providers in the last minute" });
    for (const provider of ["openai", "gemini", "claude"]) {
      await table.getByRole("row", { name: new RegExp(`^${provider} 3 `) }).waitFor({ timeout: 10_000 });
    }
    await live.locator("dd").nth(2).filter({ hasText: /^[1-9]/ }).waitFor({ timeout: 10_000 });
    // The cards follow the room's finished decisions (well before the 30 s interval): nobody pressed Refresh.
    await statValue(page, "Total Decisions").filter({ hasText: new RegExp(`^${before + questions.length}$`) }).waitFor({ timeout: 10_000 });
    expect(await region(page, "Total Decisions").getByText(/in the last hour$/).textContent()).not.toBe(recentBefore);
    await page.getByTestId("last-updated").filter({ hasText: /\((just now|\d+ s ago)\)$/ }).waitFor();
    expect(await overflowingElements(page)).toEqual([]);
    if (shots) await page.screenshot({ path: `${shots}/admin-overview-live-375.png`, fullPage: true });
    // Recent Activity was fetched before those decisions: opening it asks again, and they are listed.
    await tab(page, "Recent Activity").click();
    const activity = region(page, "Recent Activity");
    for (const question of questions) await activity.getByText(question, { exact: true }).waitFor({ timeout: 10_000 });
    if (shots) await page.screenshot({ path: `${shots}/admin-recent-live-375.png`, fullPage: true });
  });

  it("shows decisions made while Recent Activity is open, at 1280 px", async () => {
    const page = await app.newPage(DESKTOP);
    const inRoom = firstThroughput(page);
    await openAs(page, admin, "/admin?tab=recent");
    const activity = region(page, "Recent Activity");
    await activity.getByTestId("activity-item").first().waitFor();
    await inRoom;
    const question = "Open the office on Saturday?";
    const answer = await callApi(app.url, "/api/ensembled-llm-categorical-decision", admin.tokens.access_token, { body: { question, categories: ["Yes", "No"] } });
    expect(answer.status, answer.text).toBe(200);
    await activity.getByText(question, { exact: true }).waitFor({ timeout: 10_000 });
    expect(await overflowingElements(page)).toEqual([]);
    if (shots) await page.screenshot({ path: `${shots}/admin-recent-live-1280.png`, fullPage: true });
  });

  it("opens the queue view in a new tab, the dashboard staying where it was", async () => {
    const page = await app.newPage(DESKTOP);
    await openDashboard(page);
    if (shots) await page.screenshot({ path: `${shots}/admin-overview-1280.png`, fullPage: true });
    const [board] = await Promise.all([
      page.context().waitForEvent("page"),
      region(page, "Live Throughput").getByRole("button", { name: "Open queue view (opens in a new tab)" }).click(),
    ]);
    await board.waitForURL((url) => url.pathname.startsWith("/admin/queues"));
    await board.getByText(AGGREGATE_QUEUE).first().waitFor({ timeout: 15_000 });
    // Cut from the dashboard like rel=noopener, which is still open at /admin.
    expect(await board.evaluate(() => window.opener)).toBeNull();
    expect(new URL(page.url()).pathname).toBe("/admin");
    await statValue(page, "Total Decisions").filter({ hasText: /^\d+$/ }).waitFor();
  });
});

describe.skipIf(browserUnavailable)("admin: a system that is not healthy", () => {
  let stack: InProcessStack | undefined;
  let capture: SmtpCapture | undefined;
  afterAll(async () => {
    await stack?.close();
    await capture?.close();
  });

  it("shows the orange 'System Status' banner and the empty recent activity (375 and 1280 px)", async () => {
    capture = await SmtpCapture.start();
    // No provider worker runs: the providers' queues have no one to take their jobs.
    stack = await startStack(
      testEnv(app.emulator.url, { ROLES: "gateway,aggregator", ADMIN_EMAILS: ADMIN_EMAIL, SMTP_URL: capture.url, MAGIC_LINK_PER_IP_PER_HOUR: "10000" }),
    );
    const auth = await signInByMail(stack.url, capture, ADMIN_EMAIL);
    const health = await serverHealth("day", auth, stack.url);
    expect(health.status).not.toBe("healthy");
    for (const viewport of [MOBILE, DESKTOP]) {
      const page = await app.newPage(viewport);
      await openAs(page, auth, "/admin", stack.url);
      const banner = page.getByTestId("system-status-banner");
      await banner.waitFor();
      expect(await banner.textContent()).toBe(`System Status: ${capitalized(health.status)}`);
      await tab(page, "Recent Activity").click();
      await region(page, "Recent Activity").getByText(ADMIN_MESSAGES.noRecentActivity, { exact: true }).waitFor();
      expect(await overflowingElements(page)).toEqual([]);
    }
  });
});
