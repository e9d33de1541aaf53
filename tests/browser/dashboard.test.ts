import type { Locator, Page, Request, Route } from "playwright-core";
import { describe, expect, it } from "vitest";
import { DEFAULT_PROVIDERS, type AuthResponse, type StoredDecision } from "@sd/contracts";
import { browserUnavailable, DESKTOP, MOBILE, overflowingElements } from "./support/browser-app";
import { expiredAccessToken, HISTORY_PATH, useHistoryApp } from "./support/history-app";

/**
 * /dashboard in Chromium against the real stack: real accounts (magic link), histories seeded in the
 * store or made through the authenticated decision endpoint, the filters and their 500 ms debounce
 * (on a fake clock), paging, live arrival of a decision made elsewhere, and the sign-in alerts.
 */

const app = useHistoryApp();

const SESSION_EXPIRED = "Your session has expired. Please sign in again.";
const AUTH_REQUIRED = "Authentication required to access decision history";

/** Every request the page makes to the history list, recorded from now on. */
function historyRequests(page: Page): Request[] {
  const seen: Request[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === HISTORY_PATH) seen.push(request);
  });
  return seen;
}
const paramsOf = (request: Request) => Object.fromEntries(new URL(request.url()).searchParams);
const isHistoryUrl = (url: URL) => url.pathname === HISTORY_PATH;
const isHistoryRequest = (request: Request) => isHistoryUrl(new URL(request.url()));

const decisionList = (page: Page) => page.getByRole("list", { name: "Decisions" });
const cards = (page: Page) => decisionList(page).getByRole("article");
const card = (page: Page, question: string) => page.getByRole("article", { name: question });
const questions = (page: Page) => cards(page).getByRole("heading", { level: 2 }).allInnerTexts();
const filtersForm = (page: Page) => page.getByRole("form", { name: "Filters" });
const showing = (page: Page, text: string) => filtersForm(page).getByText(text, { exact: true }).waitFor();

/** Waits until the cards shown are exactly these questions, in this order. */
async function expectQuestions(page: Page, expected: string[]): Promise<void> {
  await expect.poll(() => questions(page), { timeout: 10_000 }).toEqual(expected);
}

/** Runs `action` and returns the history request it causes. */
async function requestAfter(page: Page, action: () => Promise<unknown>): Promise<Record<string, string>> {
  const [request] = await Promise.all([page.waitForRequest(isHistoryRequest), action()]);
  return paramsOf(request);
}

/** What the user sees of a colour: the pixel it paints, as RGB. */
async function paintedColour(locator: Locator): Promise<"green" | "red" | "other"> {
  const [r, g, b] = await locator.evaluate((element) => {
    const context = document.createElement("canvas").getContext("2d")!;
    context.fillStyle = getComputedStyle(element).color;
    context.fillRect(0, 0, 1, 1);
    return Array.from(context.getImageData(0, 0, 1, 1).data);
  });
  if (g! > r! + 40 && g! > b!) return "green";
  if (r! > g! + 60 && r! > b! + 60) return "red";
  return "other";
}

/** The ISO instant of the first or last millisecond of a day in the page's own time zone. */
const localDayBound = (page: Page, day: string, edge: "start" | "end") =>
  page.evaluate(
    ([day, edge]) => {
      const [y, m, d] = day!.split("-").map(Number);
      return (edge === "start" ? new Date(y!, m! - 1, d!, 0, 0, 0, 0) : new Date(y!, m! - 1, d!, 23, 59, 59, 999)).toISOString();
    },
    [day, edge],
  );

async function openDashboard(page: Page, auth: AuthResponse): Promise<void> {
  await app.openAs(page, auth, "/dashboard");
  await page.getByRole("heading", { level: 1, name: /Decision History/ }).waitFor();
}

describe.skipIf(browserUnavailable)("dashboard: signing in", () => {
  it("asks a signed-out visitor to sign in, and the link opens the sign-in dialog (375 and 1280 px)", async () => {
    for (const viewport of [MOBILE, DESKTOP]) {
      const page = await app.newPage(viewport);
      const requests = historyRequests(page);
      await page.goto("/dashboard");
      const alert = page.getByRole("alert").filter({ hasText: AUTH_REQUIRED });
      await alert.waitFor();
      expect(await overflowingElements(page)).toEqual([]);
      await alert.getByRole("button", { name: "Sign in", exact: true }).click();
      await page.getByRole("dialog", { name: "Sign in to Smart Decision" }).waitFor();
      expect(requests).toHaveLength(0);
    }
  });

  it("tells a user whose session expired to sign in again, without asking the server", async () => {
    const auth = await app.signIn("expired");
    const page = await app.newPage(MOBILE);
    const requests = historyRequests(page);
    await app.openAs(page, { user: auth.user, tokens: { ...auth.tokens, access_token: expiredAccessToken(), refresh_token: "revoked-refresh-token" } }, "/dashboard");
    const alert = page.getByRole("alert").filter({ hasText: SESSION_EXPIRED });
    await alert.waitFor();
    expect(await overflowingElements(page)).toEqual([]);
    await alert.getByRole("button", { name: "Sign in again" }).click();
    await page.getByRole("dialog", { name: "Sign in to Smart Decision" }).waitFor();
    expect(requests).toHaveLength(0);
  });
});

describe.skipIf(browserUnavailable)("dashboard: the list", () => {
  it("shows 'No decisions yet' to a new user, with 'Make a Decision' going to /playground (375 and 1280 px)", async () => {
    const auth = await app.signIn("empty");
    for (const viewport of [MOBILE, DESKTOP]) {
      const page = await app.newPage(viewport);
      await openDashboard(page, auth);
      await page.getByRole("heading", { name: "No decisions yet" }).waitFor();
      expect(await overflowingElements(page)).toEqual([]);
      await page.getByRole("main").getByRole("link", { name: "Make a Decision" }).click();
      await page.waitForURL((url) => url.pathname === "/playground");
    }
  });

  it("shows each decision as the specification's card, newest first, and opens it with a click or the keyboard", async () => {
    const auth = await app.signIn("cards");
    const [older, newer] = await app.seed(auth, [
      {
        question: "Should the team meet on Monday?",
        timestamp: new Date("2024-04-01T09:15:00.000Z"),
        categories: ["Yes", "No"],
        final_decision: null,
        vote_counts: { Yes: 0, No: 0 },
        total_votes: 0,
        context_explanation: "No valid decision could be reached from any LLM provider",
        individual_responses: { openai: null, gemini: null, claude: null },
        error_details: { openai: "timeout", gemini: "timeout", claude: "timeout" },
      },
      {
        question: "Where should the offsite be?",
        timestamp: new Date("2024-04-02T16:45:00.000Z"),
        categories: ["Lisbon", "Porto", "Madrid"],
        final_decision: "Porto",
        vote_counts: { Lisbon: 1, Porto: 2, Madrid: 0 },
        total_votes: 3,
        context_explanation: "openai: Porto is cheaper.\ngemini: Lisbon has better flights.\ndeepSeek: Porto is cheaper.",
        individual_responses: { openai: "Porto", gemini: "Lisbon", claude: null, deepSeek: "" },
      },
    ]);

    for (const viewport of [MOBILE, DESKTOP]) {
      const page = await app.newPage(viewport);
      await openDashboard(page, auth);
      await expectQuestions(page, [newer!.question, older!.question]);
      expect(await overflowingElements(page)).toEqual([]);

      const offsite = card(page, newer!.question);
      const localTime = await page.evaluate((iso) => new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" }), newer!.timestamp.toISOString());
      expect(await offsite.locator("time").innerText()).toBe(localTime);
      expect(await offsite.getByTestId("final-decision").innerText()).toBe("Porto");
      expect(await card(page, older!.question).getByTestId("final-decision").innerText()).toBe("No decision");
      // Votes per category, most first.
      expect(await offsite.getByRole("list", { name: "Vote results" }).getByRole("listitem").allInnerTexts()).toEqual([
        "Porto\n2 votes",
        "Lisbon\n1 vote",
        "Madrid\n0 votes",
      ]);
      await offsite.getByRole("heading", { name: "Why this decision?" }).waitFor();
      expect(await offsite.getByText(/^openai: Porto is cheaper\./).innerText()).toBe(newer!.context_explanation);

      // Per model: the provider's label (or the id split on capitals), a green icon unless the response is null, 'No response' if empty.
      const models = offsite.getByRole("list", { name: "Model responses" }).getByRole("listitem");
      await expect.poll(() => models.allInnerTexts()).toEqual([
        "OpenAI GPT-4o: Porto",
        "Google Gemini 2.5 Flash: Lisbon",
        `${DEFAULT_PROVIDERS.claude.label}: No response`,
        "deep Seek: No response",
      ]);
      expect(await paintedColour(models.nth(0).getByRole("img", { name: "Answered" }))).toBe("green");
      expect(await paintedColour(models.nth(2).getByRole("img", { name: "No answer" }))).toBe("red");
      // An empty response is still a response: green icon, 'No response'.
      expect(await paintedColour(models.nth(3).getByRole("img", { name: "Answered" }))).toBe("green");
    }

    // A click anywhere on the card opens the decision.
    const page = await app.newPage(DESKTOP);
    await openDashboard(page, auth);
    const box = (await card(page, older!.question).boundingBox())!;
    await page.mouse.click(box.x + box.width - 20, box.y + box.height - 12);
    await page.waitForURL((url) => url.pathname === `/decision/${older!.id}`);
    await page.getByRole("heading", { level: 1, name: older!.question }).waitFor();

    // And so does the keyboard: the card's link takes the focus, Enter opens it.
    await page.goBack();
    await card(page, newer!.question).getByRole("link").focus();
    await page.keyboard.press("Enter");
    await page.waitForURL((url) => url.pathname === `/decision/${newer!.id}`);
  });

  it("loads the next page with 'Load more' (offset + 50), and any filter change starts again at offset 0", async () => {
    const auth = await app.signIn("paging");
    const start = Date.parse("2024-01-01T12:00:00.000Z");
    await app.seed(
      auth,
      Array.from({ length: 55 }, (_, i) => ({
        question: `Question number ${i + 1}`,
        timestamp: new Date(start + i * 60_000),
        final_decision: i % 5 === 0 ? null : "TypeScript",
      })),
    );
    const page = await app.newPage(MOBILE);
    const first = page.waitForRequest(isHistoryRequest);
    await openDashboard(page, auth);
    expect(paramsOf(await first)).toEqual({ limit: "50", offset: "0" });
    await expect.poll(() => cards(page).count()).toBe(50);
    expect((await questions(page))[0]).toBe("Question number 55");

    const more = page.getByRole("button", { name: "Load more (5 more)" });
    expect(await requestAfter(page, () => more.click())).toEqual({ limit: "50", offset: "50" });
    await expect.poll(() => cards(page).count()).toBe(55);
    expect((await questions(page)).at(-1)).toBe("Question number 1");
    await more.waitFor({ state: "detached" });
    expect(await overflowingElements(page)).toEqual([]);

    await page.getByRole("button", { name: "Show Filters" }).click();
    await showing(page, "Showing 55 decisions");
    const filtered = await requestAfter(page, () => filtersForm(page).getByLabel("Decision Status").selectOption({ label: "With decisions" }));
    expect(filtered).toEqual({ limit: "50", offset: "0", hasDecision: "true" });
    await showing(page, "Showing 44 decisions");
  });

  it("shows 'Failed to fetch dashboard data' when the server fails, or answers success false without a message", async () => {
    const auth = await app.signIn("failing");
    const page = await app.newPage(DESKTOP);
    await page.route(isHistoryUrl, (route) => route.fulfill({ status: 500, json: { detail: "Internal Server Error" } }));
    await openDashboard(page, auth);
    await page.getByRole("alert").filter({ hasText: "Failed to fetch dashboard data" }).waitFor();

    const other = await app.newPage(DESKTOP);
    await other.route(isHistoryUrl, (route) =>
      route.fulfill({ status: 200, json: { success: false, decisions: [], message: "", total: 0, limit: 50, offset: 0 } }),
    );
    await openDashboard(other, auth);
    await other.getByRole("alert").filter({ hasText: "Failed to fetch dashboard data" }).waitFor();
  });

  it("reloads with Refresh Dashboard ('Refreshing...' meanwhile) and with Refresh", async () => {
    const auth = await app.signIn("refresh");
    const [first] = await app.seed(auth, [{ question: "First question?", timestamp: new Date("2024-02-01T12:00:00Z") }]);
    const page = await app.newPage(DESKTOP);
    await openDashboard(page, auth);
    await expectQuestions(page, [first!.question]);

    // Stored behind the app's back (no live event): only a reload shows it.
    const [second] = await app.seed(auth, [{ question: "Second question?", timestamp: new Date("2024-02-02T12:00:00Z") }]);
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const hold = async (route: Route) => {
      await held;
      await route.continue();
    };
    await page.route(isHistoryUrl, hold);
    await page.getByRole("button", { name: "Refresh Dashboard" }).click();
    await page.getByRole("button", { name: "Refreshing..." }).waitFor();
    release();
    await expectQuestions(page, [second!.question, first!.question]);
    await page.getByRole("button", { name: "Refresh Dashboard" }).waitFor();
    await page.unroute(isHistoryUrl, hold);

    const [third] = await app.seed(auth, [{ question: "Third question?", timestamp: new Date("2024-02-03T12:00:00Z") }]);
    await page.getByRole("button", { name: "Refresh", exact: true }).click();
    await expectQuestions(page, [third!.question, second!.question, first!.question]);
  });

  it("shows a decision the user makes elsewhere as soon as it is stored, without a refresh", async () => {
    const alice = await app.signIn("live-alice");
    const bob = await app.signIn("live-bob");
    await app.seed(alice, [{ question: "An older question?", timestamp: new Date("2024-02-01T12:00:00Z") }]);
    const page = await app.newPage(DESKTOP);
    await openDashboard(page, alice);
    await expectQuestions(page, ["An older question?"]);
    const bobsPage = await app.newPage(DESKTOP);
    await openDashboard(bobsPage, bob);
    await bobsPage.getByRole("heading", { name: "No decisions yet" }).waitFor();
    // The page follows Alice's own room once the server confirms it.
    await page.getByRole("heading", { level: 1 }).getByText("Live", { exact: true }).waitFor();
    await bobsPage.getByRole("heading", { level: 1 }).getByText("Live", { exact: true }).waitFor();
    const bobsRequests = historyRequests(bobsPage);

    app.emulator.addRules({ respond: { kind: "answer", category: "Ship it" } });
    const made = await app.decide(alice, { question: "Ship the release today?", categories: ["Ship it", "Wait"] });
    await expectQuestions(page, ["Ship the release today?", "An older question?"]);
    expect(await card(page, "Ship the release today?").getByTestId("final-decision").innerText()).toBe(made.final_decision);
    // Bob's dashboard heard nothing of it.
    expect(bobsRequests).toHaveLength(0);
    expect(await bobsPage.getByRole("heading", { name: "No decisions yet" }).isVisible()).toBe(true);
  });
});

describe.skipIf(browserUnavailable)("dashboard: filters", () => {
  const seedFilterHistory = (auth: AuthResponse): Promise<StoredDecision[]> =>
    app.seed(auth, [
      { question: "Lunch: pizza or sushi?", timestamp: new Date("2024-03-01T12:00:00Z"), categories: ["Pizza", "Sushi"], final_decision: "Pizza", vote_counts: { Pizza: 2, Sushi: 1 } },
      {
        question: "Dinner: pasta or salad?",
        timestamp: new Date("2024-03-05T12:00:00Z"),
        categories: ["Pasta", "Salad"],
        final_decision: null,
        vote_counts: { Pasta: 0, Salad: 0 },
        total_votes: 0,
      },
      { question: "Lunch tomorrow: soup or salad?", timestamp: new Date("2024-03-10T12:00:00Z"), categories: ["Soup", "Salad"], final_decision: "Salad", vote_counts: { Soup: 1, Salad: 2 } },
      { question: "Which editor?", timestamp: new Date("2024-03-15T12:00:00Z"), categories: ["Vim", "Emacs"], final_decision: "Vim", vote_counts: { Vim: 3, Emacs: 0 } },
    ]);
  const ALL = ["Which editor?", "Lunch tomorrow: soup or salad?", "Dinner: pasta or salad?", "Lunch: pizza or sushi?"];

  it("filters by question, category, status, From Date and To Date; counts what it shows; Clear Filters resets (375 and 1280 px)", async () => {
    const auth = await app.signIn("filters");
    await seedFilterHistory(auth);
    for (const viewport of [MOBILE, DESKTOP]) {
      const page = await app.newPage(viewport);
      await openDashboard(page, auth);
      await expectQuestions(page, ALL);
      const toggle = page.getByRole("button", { name: "Show Filters" });
      expect(await toggle.getAttribute("aria-expanded")).toBe("false");
      await toggle.click();
      const form = filtersForm(page);
      await showing(page, "Showing 4 decisions");
      expect(await page.getByRole("button", { name: "Hide Filters" }).getAttribute("aria-expanded")).toBe("true");
      expect(await overflowingElements(page)).toEqual([]);
      // All categories plus every category and final decision seen.
      expect(await form.getByLabel("Category").locator("option").allInnerTexts()).toEqual(["All categories", "Emacs", "Pasta", "Pizza", "Salad", "Soup", "Sushi", "Vim"]);
      expect(await form.getByLabel("Decision Status").locator("option").allInnerTexts()).toEqual(["All", "With decisions", "Without decisions"]);
      const clear = () => requestAfter(page, () => form.getByRole("button", { name: "Clear Filters" }).click());

      // Question: a case-insensitive part of the question, sent trimmed.
      expect(await requestAfter(page, () => form.getByLabel("Question").fill("  LUNCH "))).toEqual({ limit: "50", offset: "0", question: "LUNCH" });
      await expectQuestions(page, ["Lunch tomorrow: soup or salad?", "Lunch: pizza or sushi?"]);
      await showing(page, "Showing 2 decisions");
      expect(await clear()).toEqual({ limit: "50", offset: "0" });
      await expectQuestions(page, ALL);
      expect(await form.getByLabel("Question").inputValue()).toBe("");

      // Category: an offered category or the final decision.
      expect(await requestAfter(page, () => form.getByLabel("Category").selectOption("Salad"))).toMatchObject({ category: "Salad" });
      await expectQuestions(page, ["Lunch tomorrow: soup or salad?", "Dinner: pasta or salad?"]);
      await showing(page, "Showing 2 decisions");
      // Back to 'All categories': the category is no longer sent.
      expect(await requestAfter(page, () => form.getByLabel("Category").selectOption("all"))).toEqual({ limit: "50", offset: "0" });
      await expectQuestions(page, ALL);

      // Decision Status.
      expect(await requestAfter(page, () => form.getByLabel("Decision Status").selectOption({ label: "Without decisions" }))).toEqual({
        limit: "50",
        offset: "0",
        hasDecision: "false",
      });
      await expectQuestions(page, ["Dinner: pasta or salad?"]);
      await showing(page, "Showing 1 decision");
      expect(await requestAfter(page, () => form.getByLabel("Decision Status").selectOption({ label: "With decisions" }))).toMatchObject({ hasDecision: "true" });
      await expectQuestions(page, ["Which editor?", "Lunch tomorrow: soup or salad?", "Lunch: pizza or sushi?"]);
      await clear();
      await expectQuestions(page, ALL);
      expect(await form.getByLabel("Decision Status").inputValue()).toBe("all");

      // From Date and To Date: the user's local day, both ends included.
      expect(await requestAfter(page, () => form.getByLabel("From Date").fill("2024-03-05"))).toEqual({
        limit: "50",
        offset: "0",
        dateFrom: await localDayBound(page, "2024-03-05", "start"),
      });
      await expectQuestions(page, ["Which editor?", "Lunch tomorrow: soup or salad?", "Dinner: pasta or salad?"]);
      expect(await requestAfter(page, () => form.getByLabel("To Date").fill("2024-03-10"))).toEqual({
        limit: "50",
        offset: "0",
        dateFrom: await localDayBound(page, "2024-03-05", "start"),
        dateTo: await localDayBound(page, "2024-03-10", "end"),
      });
      await expectQuestions(page, ["Lunch tomorrow: soup or salad?", "Dinner: pasta or salad?"]);
      await showing(page, "Showing 2 decisions");

      // Filters combine; Clear Filters empties every input and shows everything again.
      await requestAfter(page, () => form.getByLabel("Question").fill("lunch"));
      await expectQuestions(page, ["Lunch tomorrow: soup or salad?"]);
      expect(await clear()).toEqual({ limit: "50", offset: "0" });
      await expectQuestions(page, ALL);
      await showing(page, "Showing 4 decisions");
      expect(await form.getByLabel("From Date").inputValue()).toBe("");
      expect(await form.getByLabel("To Date").inputValue()).toBe("");

      await page.getByRole("button", { name: "Hide Filters" }).click();
      await form.waitFor({ state: "detached" });
    }
  });

  it("keeps the filters in the URL: a filtered view survives a reload, opens from a shared link, and Back/Forward return to each search", async () => {
    const auth = await app.signIn("url-filters");
    await seedFilterHistory(auth);
    const page = await app.newPage(DESKTOP);
    await openDashboard(page, auth);
    await expectQuestions(page, ALL);
    await page.getByRole("button", { name: "Show Filters" }).click();
    const form = filtersForm(page);
    const search = () => new URL(page.url()).search;

    await requestAfter(page, () => form.getByLabel("Question").fill("  lunch "));
    await expectQuestions(page, ["Lunch tomorrow: soup or salad?", "Lunch: pizza or sushi?"]);
    expect(search()).toBe("?question=lunch");
    await requestAfter(page, () => form.getByLabel("Category").selectOption("Pizza"));
    await expectQuestions(page, ["Lunch: pizza or sushi?"]);
    expect(search()).toBe("?question=lunch&category=Pizza");

    // A reload searches the same thing and shows the filters it applies, without Show Filters.
    expect(await requestAfter(page, () => page.reload())).toEqual({ limit: "50", offset: "0", question: "lunch", category: "Pizza" });
    await expectQuestions(page, ["Lunch: pizza or sushi?"]);
    expect(await form.getByLabel("Question").inputValue()).toBe("lunch");
    expect(await form.getByLabel("Category").inputValue()).toBe("Pizza");
    await showing(page, "Showing 1 decision");

    // Back returns to the previous search, inputs and list; Forward to the next.
    await page.goBack();
    await expectQuestions(page, ["Lunch tomorrow: soup or salad?", "Lunch: pizza or sushi?"]);
    expect(search()).toBe("?question=lunch");
    expect(await form.getByLabel("Category").inputValue()).toBe("all");
    expect(await form.getByLabel("Question").inputValue()).toBe("lunch");
    await page.goBack();
    await expectQuestions(page, ALL);
    expect(await form.getByLabel("Question").inputValue()).toBe("");
    await page.goForward();
    await page.goForward();
    await expectQuestions(page, ["Lunch: pizza or sushi?"]);
    expect(await form.getByLabel("Category").inputValue()).toBe("Pizza");

    // A shared link (status and dates too) opens the same filtered view on another device (375 px).
    const other = await app.newPage(MOBILE);
    await openDashboard(other, auth);
    await other.goto("/dashboard?status=with&from=2024-03-05&to=2024-03-12");
    await expectQuestions(other, ["Lunch tomorrow: soup or salad?"]);
    const shared = filtersForm(other);
    expect(await shared.getByLabel("Decision Status").inputValue()).toBe("with");
    expect(await shared.getByLabel("From Date").inputValue()).toBe("2024-03-05");
    expect(await shared.getByLabel("To Date").inputValue()).toBe("2024-03-12");
    expect(await overflowingElements(other)).toEqual([]);
    if (process.env.SITE_SCREENSHOTS) {
      await other.screenshot({ path: `${process.env.SITE_SCREENSHOTS}/nav-dashboard-url-375.png`, fullPage: true });
      await page.screenshot({ path: `${process.env.SITE_SCREENSHOTS}/nav-dashboard-url-1280.png`, fullPage: true });
    }
    // Clear Filters leaves plain /dashboard.
    await requestAfter(other, () => shared.getByRole("button", { name: "Clear Filters" }).click());
    expect(new URL(other.url()).search).toBe("");
    await expectQuestions(other, ALL);
  });

  it("reads From and To as days of the user's own time zone", async () => {
    const auth = await app.signIn("zone");
    // 22:30 on 5 March in New York is already 6 March in UTC.
    await app.seed(auth, [
      { question: "Late on the fifth?", timestamp: new Date("2024-03-06T03:30:00.000Z") },
      { question: "Early on the sixth?", timestamp: new Date("2024-03-06T05:30:00.000Z") },
    ]);
    const page = await app.newPage(DESKTOP);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Emulation.setTimezoneOverride", { timezoneId: "America/New_York" });
    await openDashboard(page, auth);
    await expectQuestions(page, ["Early on the sixth?", "Late on the fifth?"]);
    await page.getByRole("button", { name: "Show Filters" }).click();
    const form = filtersForm(page);
    await form.getByLabel("From Date").fill("2024-03-05");
    expect(await requestAfter(page, () => form.getByLabel("To Date").fill("2024-03-05"))).toEqual({
      limit: "50",
      offset: "0",
      dateFrom: "2024-03-05T05:00:00.000Z",
      dateTo: "2024-03-06T04:59:59.999Z",
    });
    await expectQuestions(page, ["Late on the fifth?"]);
  });

  it("waits 500 ms after the last change before reloading (fake clock); Apply Filters searches at once", async () => {
    const auth = await app.signIn("debounce");
    await seedFilterHistory(auth);
    const page = await app.newPage(DESKTOP);
    await page.clock.install();
    await openDashboard(page, auth);
    await expectQuestions(page, ALL);
    await page.getByRole("button", { name: "Show Filters" }).click();
    const form = filtersForm(page);
    await showing(page, "Showing 4 decisions");

    const now = await page.evaluate(() => Date.now());
    await page.clock.pauseAt(now + 1_000);
    const requests = historyRequests(page);
    // Lets the page finish whatever the last step started (React renders outside the fake timers).
    const settle = () =>
      page.evaluate(
        () =>
          new Promise<void>((resolve) => {
            const channel = new MessageChannel();
            let rounds = 0;
            channel.port1.onmessage = () => (++rounds < 5 ? channel.port2.postMessage(null) : resolve());
            channel.port2.postMessage(null);
          }),
      );

    // Typing restarts the wait with each key: nothing is sent until 500 ms after the last one.
    await form.getByLabel("Question").pressSequentially("edit");
    await page.clock.runFor(300);
    await form.getByLabel("Question").press("o");
    await page.clock.runFor(499);
    await settle();
    expect(requests).toHaveLength(0);
    await Promise.all([page.waitForRequest(isHistoryRequest), page.clock.runFor(1)]);
    expect(requests.map(paramsOf)).toEqual([{ limit: "50", offset: "0", question: "edito" }]);

    // The same for a select: one change, one request, 500 ms later.
    await form.getByLabel("Decision Status").selectOption({ label: "With decisions" });
    await page.clock.runFor(499);
    await settle();
    expect(requests).toHaveLength(1);
    await Promise.all([page.waitForRequest(isHistoryRequest), page.clock.runFor(1)]);
    expect(paramsOf(requests[1]!)).toEqual({ limit: "50", offset: "0", question: "edito", hasDecision: "true" });

    // Apply Filters does not wait, and the pending wait then sends nothing more.
    await form.getByLabel("Question").fill("lunch");
    await Promise.all([page.waitForRequest(isHistoryRequest), form.getByRole("button", { name: "Apply Filters" }).click()]);
    expect(paramsOf(requests[2]!)).toEqual({ limit: "50", offset: "0", question: "lunch", hasDecision: "true" });
    await page.clock.runFor(1_000);
    await settle();
    expect(requests).toHaveLength(3);

    await page.clock.resume();
    await expectQuestions(page, ["Lunch tomorrow: soup or salad?", "Lunch: pizza or sushi?"]);
    await showing(page, "Showing 2 decisions");
  });
});
