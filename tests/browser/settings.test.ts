import type { Page, Request } from "playwright-core";
import { describe, expect, it } from "vitest";
import {
  API_KEY_HEADER,
  API_KEY_MESSAGES,
  API_KEY_PREFIX,
  ApiKeyListSchema,
  ApiKeySchema,
  formatUsd,
  MASKED_API_KEY,
  UsageSchema,
  type ApiKey,
  type AuthResponse,
  type Usage,
} from "@sd/contracts";
import { callApi } from "@sd/testing";
import { browserUnavailable, DESKTOP, MOBILE, overflowingElements } from "./support/browser-app";
import { expiredAccessToken, pngDataUrl, useHistoryApp } from "./support/history-app";

/**
 * /settings in Chromium against the real stack: real accounts (magic link), keys made through the
 * page and over HTTP, the key's value read back from the clipboard, the key used on /v1, and the
 * Limits figures measured by the server, at 375 and 1280 px.
 */

const app = useHistoryApp();

const KEYS_PATH = "/api/api-keys";
const AUTH_REQUIRED = "Authentication Required";
const SIGN_IN_TEXT = "Please sign in to access your settings.";

const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]").filter({ hasText: text });
/** A destructive 'Error' toast with the specification's text. */
const errorToast = (page: Page, text: string) => page.locator('[data-sonner-toast][data-type="error"]').filter({ hasText: "Error" }).filter({ hasText: text });
const sidebar = (page: Page) => page.getByRole("navigation", { name: "Settings sections" });
const section = (page: Page, name: string) => page.getByRole("region", { name, exact: true });
const keysTable = (page: Page) => page.getByRole("region", { name: "API keys table" });
/** The table row of the key named `name`. */
const keyRow = (page: Page, name: string) => keysTable(page).getByRole("row").filter({ has: page.getByText(name, { exact: true }) });
const keyValue = (page: Page, name: string) => keyRow(page, name).getByTestId("api-key-value");
const createDialog = (page: Page) => page.getByRole("dialog", { name: "Create Key" });
const clipboardText = (page: Page) => page.evaluate(() => navigator.clipboard.readText());

/** Every request the page makes to the key endpoints, recorded from now on. */
function keyRequests(page: Page): Request[] {
  const seen: Request[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname.startsWith(KEYS_PATH)) seen.push(request);
  });
  return seen;
}

async function openSettings(page: Page, auth: AuthResponse, search = ""): Promise<void> {
  await app.openAs(page, auth, `/settings${search}`);
  await page.getByRole("heading", { level: 1, name: "Settings" }).waitFor();
}

/** The user's keys as the server holds them. */
async function serverKeys(auth: AuthResponse): Promise<ApiKey[]> {
  const answer = await callApi(app.url, KEYS_PATH, auth.tokens.access_token);
  expect(answer.status).toBe(200);
  return ApiKeyListSchema.parse(answer.body);
}

/** A key made over HTTP (as another tab would), secret included. */
async function createKey(auth: AuthResponse, name: string, workspace?: string): Promise<ApiKey & { keyvalue: string }> {
  const answer = await callApi(app.url, KEYS_PATH, auth.tokens.access_token, { body: { name, workspace } });
  expect(answer.status, answer.text).toBe(201);
  const key = ApiKeySchema.parse(answer.body);
  if (!key.keyvalue) throw new Error("the create answer carries no keyvalue");
  return { ...key, keyvalue: key.keyvalue };
}

async function usageOf(auth: AuthResponse): Promise<Usage> {
  const answer = await callApi(app.url, "/api/usage", auth.tokens.access_token);
  expect(answer.status, answer.text).toBe(200);
  return UsageSchema.parse(answer.body);
}

/** POST /v1/ensemble with the key, as an API client calls it. */
async function callV1(apiKey: string, body: Record<string, unknown> = { prompt: "Ship on Friday?", valid_responses: ["Yes", "No"] }) {
  const response = await fetch(`${app.url}/v1/ensemble`, {
    method: "POST",
    headers: { "content-type": "application/json", [API_KEY_HEADER]: apiKey },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Where screenshots go when set (e.g. SETTINGS_SCREENSHOTS=/tmp/shots). */
const shots = process.env.SETTINGS_SCREENSHOTS;

/** Megabytes as the Limits section words them (the formatter's own rules are unit-tested in web/src/settings). */
const megabytes = (bytes: number) => (bytes === 0 ? "0 MB" : bytes / 1024 ** 2 < 0.01 ? "<0.01 MB" : `${(bytes / 1024 ** 2).toLocaleString("en-US", { maximumFractionDigits: 2 })} MB`);

describe.skipIf(browserUnavailable)("settings: signing in", () => {
  it("asks a signed-out visitor to sign in, asks the server nothing, and opens the sign-in dialog (375 and 1280 px)", async () => {
    for (const viewport of [MOBILE, DESKTOP]) {
      const page = await app.newPage(viewport);
      const requests = keyRequests(page);
      await page.goto("/settings");
      const alert = page.getByRole("alert").filter({ hasText: AUTH_REQUIRED });
      await alert.getByText(SIGN_IN_TEXT, { exact: true }).waitFor();
      expect(await sidebar(page).count()).toBe(0);
      expect(await overflowingElements(page)).toEqual([]);
      await alert.getByRole("button", { name: "Sign in", exact: true }).click();
      await page.getByRole("dialog", { name: "Sign in to Smart Decision" }).waitFor();
      expect(requests).toHaveLength(0);
    }
  });

  it("treats an expired session that cannot be renewed as signed out, with 'Sign in again'", async () => {
    const auth = await app.signIn("settings-expired");
    const page = await app.newPage(MOBILE);
    const requests = keyRequests(page);
    // A valid refresh token would renew the session silently: this one is not (any longer) valid.
    await app.openAs(page, { user: auth.user, tokens: { ...auth.tokens, access_token: expiredAccessToken(), refresh_token: "revoked-refresh-token" } }, "/settings");
    const alert = page.getByRole("alert").filter({ hasText: AUTH_REQUIRED });
    await alert.getByText(SIGN_IN_TEXT, { exact: true }).waitFor();
    await alert.getByRole("button", { name: "Sign in again" }).click();
    await page.getByRole("dialog", { name: "Sign in to Smart Decision" }).waitFor();
    expect(requests).toHaveLength(0);
  });
});

describe.skipIf(browserUnavailable)("settings: the sidebar and its sections", () => {
  it("shows a new user the organization, every section, and the empty key list (375 and 1280 px)", async () => {
    const auth = await app.signIn("settings-empty");
    const owner = auth.user.email.split("@")[0]!;
    for (const viewport of [MOBILE, DESKTOP]) {
      const page = await app.newPage(viewport);
      await openSettings(page, auth);
      const nav = sidebar(page);
      await nav.getByText(`${owner}'s Organization`, { exact: true }).waitFor();
      // The key count comes with the key list, after the organization's name: read the links once it is there.
      await nav.getByRole("link", { name: "API keys (0 keys)", exact: true }).waitFor();
      const links = await nav.getByRole("link").allInnerTexts();
      expect(links[0]).toMatch(/^API keys\s+0\s/);
      expect(links.slice(1)).toEqual(["Webhooks", "Billing", "Limits", "Organization", "Workspaces", "Privacy controls"]);
      await section(page, "API keys").getByText(API_KEY_MESSAGES.emptyState, { exact: true }).waitFor();
      expect(await overflowingElements(page)).toEqual([]);

      await nav.getByRole("link", { name: "Billing" }).click();
      await section(page, "Billing").getByText("Free tier - No billing information required", { exact: true }).waitFor();
      expect(new URL(page.url()).searchParams.get("section")).toBe("billing");
      for (const name of ["Organization", "Workspaces", "Privacy controls"]) {
        await nav.getByRole("link", { name }).click();
        await section(page, name).getByText("Coming Soon", { exact: true }).waitFor();
        expect(await nav.getByRole("link", { name }).getAttribute("aria-current")).toBe("page");
        expect(await overflowingElements(page)).toEqual([]);
      }

      await nav.getByRole("link", { name: "Limits" }).click();
      const limits = section(page, "Limits");
      await limits.getByRole("progressbar", { name: "API Requests" }).and(page.locator('[aria-valuetext="0 / 1,000"]')).waitFor();
      await limits.getByText("0 / 1,000", { exact: true }).waitFor();
      await limits.getByText("0 MB / 1 GB", { exact: true }).waitFor();
      expect(await overflowingElements(page)).toEqual([]);

      // Back returns to the section before, as with any page.
      await page.goBack();
      await section(page, "Privacy controls").waitFor();
    }
  });
});

describe.skipIf(browserUnavailable)("settings: creating a key", () => {
  it("checks the name, shows 'Creating...', toasts, shows the new value once to copy, and lists the key (375 px)", async () => {
    const auth = await app.signIn("settings-create");
    const page = await app.newPage(MOBILE);
    await openSettings(page, auth);
    await section(page, "API keys").getByText(API_KEY_MESSAGES.emptyState).waitFor();
    const requests = keyRequests(page);

    await section(page, "API keys").getByRole("button", { name: "Create Key" }).click();
    const dialog = createDialog(page);
    await dialog.waitFor();
    expect(await dialog.getByLabel("Workspace").inputValue()).toBe("Default");
    expect(await overflowingElements(page)).toEqual([]);

    // A blank name is refused here, as the server would refuse it.
    await dialog.getByLabel("Key Name").fill("   ");
    await dialog.getByRole("button", { name: "Create Key" }).click();
    await dialog.getByText(API_KEY_MESSAGES.nameRequired, { exact: true }).waitFor();
    expect(await dialog.getByLabel("Key Name").getAttribute("aria-invalid")).toBe("true");
    expect(requests.filter((r) => r.method() === "POST")).toHaveLength(0);

    // The create call is held until the button has been seen busy, then goes on to the server.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(`**${KEYS_PATH}`, async (route) => {
      if (route.request().method() !== "POST") return route.continue();
      await held;
      await route.continue();
    });
    await dialog.getByLabel("Key Name").fill("  CI pipeline  ");
    await dialog.getByLabel("Workspace").fill("Staging");
    expect(await dialog.getByText(API_KEY_MESSAGES.nameRequired).count()).toBe(0);
    // The button turns busy before the browser reports the request it sends: wait for that report.
    const posted = page.waitForRequest((r) => r.method() === "POST" && new URL(r.url()).pathname === KEYS_PATH);
    await dialog.getByRole("button", { name: "Create Key" }).click();
    const busy = dialog.getByRole("button", { name: "Creating..." });
    await busy.waitFor();
    expect(await busy.isDisabled()).toBe(true);
    expect((await posted).postDataJSON()).toEqual({ name: "CI pipeline", workspace: "Staging" });
    release();

    await toast(page, API_KEY_MESSAGES.created).waitFor();
    const created = page.getByRole("dialog", { name: "API key created" });
    const value = await created.getByRole("textbox").inputValue();
    expect(value.startsWith(API_KEY_PREFIX)).toBe(true);
    await created.getByRole("button", { name: "Copy new key" }).click();
    await toast(page, API_KEY_MESSAGES.copiedTitle).filter({ hasText: API_KEY_MESSAGES.copied }).waitFor();
    expect(await clipboardText(page)).toBe(value);
    await created.getByRole("button", { name: "Done" }).click();
    await created.waitFor({ state: "detached" });

    // The row, as the server holds the key; the secret is hidden behind the fixed placeholder.
    const [stored] = await serverKeys(auth);
    expect(stored).toMatchObject({ name: "CI pipeline", workspace: "Staging", active_status: true, last_used_at: null });
    const row = keyRow(page, "CI pipeline");
    await row.waitFor();
    const cells = await row.getByRole("cell").allInnerTexts();
    expect(cells.slice(0, 6).map((c) => c.trim())).toEqual(["Staging", stored!.created_by, expect.any(String), "Never", "$0.00\n$0.00 this month · 0 calls\nSet limit", "Active"]);
    expect(await keyValue(page, "CI pipeline").innerText()).toBe(MASKED_API_KEY);
    await sidebar(page).getByRole("link", { name: "API keys (1 key)", exact: true }).waitFor();
    expect(await page.getByText(value).count()).toBe(0);
    expect(await overflowingElements(page)).toEqual([]);

    // Opening the dialog again starts blank: the last value is gone.
    await section(page, "API keys").getByRole("button", { name: "Create Key" }).click();
    expect(await createDialog(page).getByLabel("Key Name").inputValue()).toBe("");
    await createDialog(page).getByRole("button", { name: "Cancel" }).click();
    await createDialog(page).waitFor({ state: "detached" });
    expect(requests.filter((r) => r.method() === "POST")).toHaveLength(1);
  });
});

describe.skipIf(browserUnavailable)("settings: a key's actions", () => {
  it("shows and hides the key's value, and copies it without showing it (1280 px)", async () => {
    const auth = await app.signIn("settings-reveal");
    const key = await createKey(auth, "Reporting job");
    const page = await app.newPage(DESKTOP);
    await openSettings(page, auth);
    const row = keyRow(page, "Reporting job");
    await row.waitFor();
    expect(await keyValue(page, "Reporting job").innerText()).toBe(MASKED_API_KEY);

    await row.getByRole("button", { name: "Copy key" }).click();
    await toast(page, API_KEY_MESSAGES.copiedTitle).filter({ hasText: API_KEY_MESSAGES.copied }).waitFor();
    expect(await clipboardText(page)).toBe(key.keyvalue);
    expect(await keyValue(page, "Reporting job").innerText()).toBe(MASKED_API_KEY);

    await row.getByRole("button", { name: "Show key" }).click();
    await expect.poll(() => keyValue(page, "Reporting job").innerText()).toBe(key.keyvalue);
    await row.getByRole("button", { name: "Hide key" }).click();
    await expect.poll(() => keyValue(page, "Reporting job").innerText()).toBe(MASKED_API_KEY);
    expect(await page.getByText(key.keyvalue).count()).toBe(0);
  });

  it("says 'Failed to reveal API key', 'Failed to update API key' and 'Failed to copy to clipboard' when those fail", async () => {
    const auth = await app.signIn("settings-failures");
    await createKey(auth, "Gone elsewhere");
    await createKey(auth, "Still here");
    const page = await app.newPage(DESKTOP);
    await openSettings(page, auth);
    await keyRow(page, "Gone elsewhere").waitFor();

    // Deleted in another tab: the server no longer reveals it.
    const gone = (await serverKeys(auth)).find((k) => k.name === "Gone elsewhere")!;
    expect((await callApi(app.url, `${KEYS_PATH}/${gone.id}`, auth.tokens.access_token, { method: "DELETE" })).status).toBe(200);
    await keyRow(page, "Gone elsewhere").getByRole("button", { name: "Show key" }).click();
    await errorToast(page, API_KEY_MESSAGES.revealFailed).waitFor();
    expect(await keyValue(page, "Gone elsewhere").innerText()).toBe(MASKED_API_KEY);
    // Switching it off fails too; the table then shows the keys as the server has them.
    await keyRow(page, "Gone elsewhere").getByRole("switch", { name: "Active" }).click();
    await errorToast(page, API_KEY_MESSAGES.updateFailed).waitFor();
    await keyRow(page, "Gone elsewhere").waitFor({ state: "detached" });
    await keyRow(page, "Still here").waitFor();

    // A browser that refuses clipboard writes (permission denied).
    await page.evaluate(() => {
      const refuse = () => Promise.reject(new DOMException("Write permission denied.", "NotAllowedError"));
      Object.defineProperty(navigator.clipboard, "write", { value: refuse });
      Object.defineProperty(navigator.clipboard, "writeText", { value: refuse });
    });
    await keyRow(page, "Still here").getByRole("button", { name: "Copy key" }).click();
    await errorToast(page, API_KEY_MESSAGES.copyFailed).waitFor();
    expect(await toast(page, API_KEY_MESSAGES.copiedTitle).count()).toBe(0);
  });

  it("says 'Failed to fetch API keys' when the list cannot be loaded, and 'Try again' loads it", async () => {
    const auth = await app.signIn("settings-fetch-failure");
    await createKey(auth, "Backup job");
    const page = await app.newPage(MOBILE);
    const isList = (url: URL) => url.pathname === KEYS_PATH;
    await page.route(isList, (route) => route.fulfill({ status: 503, json: { detail: "Service Unavailable" } }));
    await openSettings(page, auth);
    await errorToast(page, API_KEY_MESSAGES.fetchFailed).waitFor();
    const alert = section(page, "API keys").getByRole("alert");
    await alert.getByText(API_KEY_MESSAGES.fetchFailed).waitFor();
    expect(await overflowingElements(page)).toEqual([]);

    await page.unroute(isList);
    await alert.getByRole("button", { name: "Try again" }).click();
    await keyRow(page, "Backup job").waitFor();
    expect(await alert.count()).toBe(0);
  });

  it("deactivates and reactivates a key, and the API follows at once (375 px)", async () => {
    const auth = await app.signIn("settings-toggle");
    const key = await createKey(auth, "Nightly batch");
    const page = await app.newPage(MOBILE);
    await openSettings(page, auth);
    const row = keyRow(page, "Nightly batch");
    const toggle = row.getByRole("switch", { name: "Active" });
    expect(await toggle.getAttribute("aria-checked")).toBe("true");

    const updates: unknown[] = [];
    page.on("request", (r) => r.method() === "PUT" && updates.push(r.postDataJSON()));
    await toggle.click();
    await toast(page, API_KEY_MESSAGES.updated).waitFor();
    await expect.poll(() => row.getByRole("cell").nth(5).innerText()).toBe("Inactive");
    expect(await toggle.getAttribute("aria-checked")).toBe("false");
    expect((await serverKeys(auth))[0]!.active_status).toBe(false);
    expect((await callV1(key.keyvalue)).status).toBe(401);
    expect(await overflowingElements(page)).toEqual([]);

    await toggle.click();
    await expect.poll(() => row.getByRole("cell").nth(5).innerText()).toBe("Active");
    expect(await toggle.getAttribute("aria-checked")).toBe("true");
    expect(updates).toEqual([{ active_status: false }, { active_status: true }]);
    expect((await serverKeys(auth))[0]!.active_status).toBe(true);
    expect((await callV1(key.keyvalue)).status).toBe(200);
  });

  it("deletes a key only after confirmation; Cancel keeps it (1280 px)", async () => {
    const auth = await app.signIn("settings-delete");
    await createKey(auth, "Old laptop");
    const page = await app.newPage(DESKTOP);
    const requests = keyRequests(page);
    await openSettings(page, auth);
    const row = keyRow(page, "Old laptop");

    await row.getByRole("button", { name: "Delete key" }).click();
    const confirm = page.getByRole("dialog", { name: "Delete API key" });
    await confirm.getByText(/"Old laptop" stops working at once/).waitFor();
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await confirm.waitFor({ state: "detached" });
    expect(await row.count()).toBe(1);
    expect(requests.filter((r) => r.method() === "DELETE")).toHaveLength(0);
    expect(await serverKeys(auth)).toHaveLength(1);

    await row.getByRole("button", { name: "Delete key" }).click();
    await confirm.getByRole("button", { name: "Delete", exact: true }).click();
    await toast(page, API_KEY_MESSAGES.deleted).waitFor();
    await confirm.waitFor({ state: "detached" });
    await section(page, "API keys").getByText(API_KEY_MESSAGES.emptyState, { exact: true }).waitFor();
    await sidebar(page).getByRole("link", { name: "API keys (0 keys)", exact: true }).waitFor();
    expect(await serverKeys(auth)).toHaveLength(0);
  });
});

describe.skipIf(browserUnavailable)("settings: real figures", () => {
  it("shows the key's last use and cost and the month's API requests after a /v1 call, and the storage of a decision's images (375 and 1280 px)", async () => {
    const auth = await app.signIn("settings-usage");
    const key = await createKey(auth, "Usage probe");
    const answer = await callV1(key.keyvalue);
    expect(answer.status).toBe(200);
    await app.decide(auth, { question: "Which photo is sharper?", categories: ["First", "Second"], images: [pngDataUrl(320, 240, 40), pngDataUrl(320, 240, 200)] });

    const usage = await usageOf(auth);
    expect(usage.api_requests).toBe(1);
    expect(usage.storage_bytes).toBeGreaterThan(0);
    const [used] = await serverKeys(auth);
    expect(used!.last_used_at).not.toBeNull();
    const storage = `${megabytes(usage.storage_bytes)} / 1 GB`;
    expect(storage).not.toBe("0 MB / 1 GB");

    for (const viewport of [MOBILE, DESKTOP]) {
      const page = await app.newPage(viewport);
      await openSettings(page, auth, "?section=limits");
      const limits = section(page, "Limits");
      await limits.getByText("1 / 1,000", { exact: true }).waitFor();
      await limits.getByText(storage, { exact: true }).waitFor();
      expect(await limits.getByRole("progressbar", { name: "API Requests" }).getAttribute("aria-valuenow")).toBe("1");
      expect(await limits.getByRole("progressbar", { name: "Storage" }).getAttribute("aria-valuenow")).toBe(String(usage.storage_bytes));
      expect(await overflowingElements(page)).toEqual([]);

      await sidebar(page).getByRole("link", { name: /API keys/ }).click();
      const row = keyRow(page, "Usage probe");
      await row.waitFor();
      expect(await row.getByRole("cell").nth(3).innerText()).not.toBe("Never");
      // COST: the key's cost in all, then this month's spend and calls.
      const [costLine, monthLine] = (await row.getByRole("cell").nth(4).innerText()).split("\n");
      expect(costLine).toMatch(/^(\$\d[\d,]*\.\d{2,4}|<\$0\.0001)$/);
      expect(monthLine).toBe(`${formatUsd(used!.spend_this_month_usd)} this month · 1 call`);
      expect(await overflowingElements(page)).toEqual([]);
    }
  });

  it("shows a key's spend and calls this month, sets its monthly spend limit, and shows the limit reached when the API refuses the key (375 and 1280 px)", async () => {
    const auth = await app.signIn("settings-spend");
    const key = await createKey(auth, "Spend probe");
    // Tokens enough for the decision to cost several cents at the models' list prices.
    app.emulator.addRules({ match: { question_contains: "[spend]" }, respond: { kind: "answer", category: "Yes", usage: { input_tokens: 4000, output_tokens: 1000 } } });
    expect((await callV1(key.keyvalue, { prompt: "[spend] Ship on Friday?", valid_responses: ["Yes", "No"], early_quorum: false })).status).toBe(200);
    const [spent] = await serverKeys(auth);
    expect(spent!.spend_this_month_usd).toBeGreaterThan(0.01);
    const month = `${formatUsd(spent!.spend_this_month_usd)} this month · 1 call`;

    const page = await app.newPage(DESKTOP);
    await openSettings(page, auth);
    const cost = keyRow(page, "Spend probe").getByTestId("api-key-cost");
    await cost.getByText(month, { exact: true }).waitFor();
    expect(await cost.getByRole("button").innerText()).toBe("Set limit");

    // A limit that is no amount is refused in the dialog, before anything is sent.
    const patches: unknown[] = [];
    page.on("request", (r) => r.method() === "PATCH" && patches.push(r.postDataJSON()));
    await keyRow(page, "Spend probe").getByRole("button", { name: /^Set monthly spend limit/ }).click();
    const dialog = page.getByRole("dialog", { name: "Monthly spend limit" });
    await dialog.getByText(`Spent so far: ${month}.`, { exact: true }).waitFor();
    const amount = dialog.getByLabel("Limit (US dollars)");
    await amount.fill("0");
    await dialog.getByRole("button", { name: "Set limit" }).click();
    await dialog.getByText(API_KEY_MESSAGES.spendLimitInvalid, { exact: true }).waitFor();
    expect(patches).toEqual([]);

    // One cent: already spent, so the key is stopped at once, and the table says so.
    await amount.fill("$0.01");
    await dialog.getByRole("button", { name: "Set limit" }).click();
    await toast(page, API_KEY_MESSAGES.spendLimitSet).waitFor();
    await dialog.waitFor({ state: "detached" });
    await cost.getByText("Limit $0.01 reached", { exact: true }).waitFor();
    expect(patches).toEqual([{ monthly_spend_limit_usd: 0.01 }]);
    expect((await serverKeys(auth))[0]!.monthly_spend_limit_usd).toBe(0.01);
    const calls = app.emulator.calls().length;
    const refused = await callV1(key.keyvalue, { prompt: "[spend] Once more?", valid_responses: ["Yes", "No"] });
    expect(refused).toEqual({ status: 402, body: { detail: API_KEY_MESSAGES.spendLimitReached(0.01, spent!.spend_this_month_usd) } });
    expect(app.emulator.calls()).toHaveLength(calls);
    expect(await overflowingElements(page)).toEqual([]);
    // At 1280 px every column is in view, STATUS included: the table fits beside the sidebar without scrolling.
    expect(await keysTable(page).evaluate((box) => box.scrollWidth - box.clientWidth)).toBeLessThanOrEqual(0);
    if (shots) await page.screenshot({ path: `${shots}/settings-spend-limit-1280.png`, fullPage: true });

    // On a phone: the refused call counted, the limit shows reached; removing it lets the key decide again.
    const phone = await app.newPage(MOBILE);
    await openSettings(phone, auth);
    const phoneCost = keyRow(phone, "Spend probe").getByTestId("api-key-cost");
    await phoneCost.getByText("Limit $0.01 reached", { exact: true }).waitFor();
    await phoneCost.getByText(`${formatUsd(spent!.spend_this_month_usd)} this month · 2 calls`, { exact: true }).waitFor();
    expect(await overflowingElements(phone)).toEqual([]);
    // The table scrolls sideways on a phone: scrolled to its end, COST and STATUS sit beside the actions.
    await keysTable(phone).evaluate((box) => box.scrollTo({ left: box.scrollWidth }));
    if (shots) await phone.screenshot({ path: `${shots}/settings-spend-limit-375.png`, fullPage: true });
    await keyRow(phone, "Spend probe").getByRole("button", { name: /^Set monthly spend limit/ }).click();
    const phoneDialog = phone.getByRole("dialog", { name: "Monthly spend limit" });
    expect(await phoneDialog.getByLabel("Limit (US dollars)").inputValue()).toBe("0.01");
    if (shots) await phone.screenshot({ path: `${shots}/settings-spend-dialog-375.png` });
    await phoneDialog.getByRole("button", { name: "Remove limit" }).click();
    await toast(phone, API_KEY_MESSAGES.spendLimitCleared).waitFor();
    await phoneDialog.waitFor({ state: "detached" });
    await phoneCost.getByRole("button", { name: "Set monthly spend limit", exact: true }).waitFor();
    expect((await serverKeys(auth))[0]!.monthly_spend_limit_usd).toBeNull();
    expect((await callV1(key.keyvalue, { prompt: "[spend] Now?", valid_responses: ["Yes", "No"] })).status).toBe(200);
  });
});
