import type { BrowserContext, Page, Request, Response } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { AUTH_MESSAGES, type AuthResponse, type AuthTokens, type AuthUser } from "@sd/contracts";
import { magicLinkToken, signInByMail, SmtpCapture, startTestOidcProvider, type TestAccount, type TestOidcProvider } from "@sd/testing";
import { browserUnavailable, DESKTOP, MOBILE, overflowingElements, useBrowserApp } from "./support/browser-app";

/**
 * Accounts in the browser: magic-link and Google sign-in end to end (real SMTP capture, a real
 * OpenID provider standing in for Google), the session's storage, expiry and refresh, the avatar
 * menu, the console when signed in, sign-out, and /auth/callback's failures.
 */

const ADMIN = "boss@example.com";
/** Sign-in links and Google's redirect point here (the stack's port is only known once it runs). */
const PUBLIC_URL = "http://127.0.0.1:3999";
const GOOGLE_ACCOUNT: TestAccount = {
  sub: "google-ada",
  email: "ada.google@example.com",
  email_verified: true,
  name: "Ada Lovelace",
  picture: "https://images.example.com/ada.png",
};
const SESSION_EXPIRED = "Session expired. You can still make predictions without signing in again.";
const shots = process.env.AUTH_SCREENSHOTS;

// The SMTP capture and the OpenID provider start before the stack, which is configured with them.
const env: Record<string, string> = {
  PUBLIC_URL,
  ADMIN_EMAILS: ADMIN,
  MAGIC_LINK_PER_IP_PER_HOUR: "1000",
  GOOGLE_CLIENT_ID: "smart-decision",
  GOOGLE_CLIENT_SECRET: "test-client-secret",
};
let smtp: SmtpCapture | undefined;
let op: TestOidcProvider | undefined;
beforeAll(async () => {
  if (browserUnavailable) return;
  smtp = await SmtpCapture.start();
  op = await startTestOidcProvider({
    clientId: env.GOOGLE_CLIENT_ID!,
    clientSecret: env.GOOGLE_CLIENT_SECRET!,
    redirectUri: `${PUBLIC_URL}/auth/callback`,
    account: GOOGLE_ACCOUNT,
  });
  env.SMTP_URL = smtp.url;
  env.GOOGLE_ISSUER = op.issuer;
});
const app = useBrowserApp(env);
afterAll(async () => {
  await op?.close();
  await smtp?.close();
});

const mail = () => {
  if (!smtp) throw new Error("the SMTP capture starts in beforeAll");
  return smtp;
};

let n = 0;
const freshEmail = (name: string) => `${name}.${++n}.${Date.now()}@example.com`;

const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]").filter({ hasText: text });
const avatarButton = (page: Page) => page.getByRole("banner").getByRole("button", { name: "Account menu" });
const headerSignIn = (page: Page) => page.getByRole("banner").getByRole("button", { name: "Sign In", exact: true });
const pathOf = (page: Page) => new URL(page.url()).pathname;

interface Stored {
  user: AuthUser | null;
  tokens: AuthTokens | null;
}
const storedSession = (page: Page): Promise<Stored> =>
  page.evaluate(() => {
    const read = (key: string) => {
      const text = localStorage.getItem(key);
      return text === null ? null : JSON.parse(text);
    };
    return { user: read("auth_user"), tokens: read("auth_token") };
  });

/** Writes a session to storage and announces it with the `authStateChanged` event, as another part of the app could. */
async function storeSession(page: Page, session: { user: unknown; tokens: unknown }) {
  await page.evaluate(({ user, tokens }) => {
    localStorage.setItem("auth_user", JSON.stringify(user));
    localStorage.setItem("auth_token", JSON.stringify(tokens));
    window.dispatchEvent(new Event("authStateChanged"));
  }, session);
}

/** Signs in over the API (the mail read from the SMTP capture) and hands the session to the page. */
async function signInAs(page: Page, email: string, path = "/"): Promise<AuthResponse> {
  const auth = await signInByMail(app.url, mail(), email);
  await page.goto(path);
  await storeSession(page, auth);
  await avatarButton(page).waitFor();
  return auth;
}

/** The statuses of the answers the page (or every tab of a browser context) gets from `path`, recorded from now on. */
function answersTo(page: Page | BrowserContext, path: string): number[] {
  const statuses: number[] = [];
  page.on("response", (response: Response) => {
    if (new URL(response.url()).pathname === path) statuses.push(response.status());
  });
  return statuses;
}

/** Every request the page (or every tab of a browser context) makes to `path`, recorded from now on. */
function recordRequests(page: Page | BrowserContext, path: string): Request[] {
  const seen: Request[] = [];
  page.on("request", (request: Request) => {
    if (new URL(request.url()).pathname === path) seen.push(request);
  });
  return seen;
}

/** A JWT the client accepts (its exp lies ahead) but the server rejects (not signed by it). */
function forgedAccessToken(): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${part({ alg: "HS256", typ: "JWT" })}.${part({ sub: "someone", exp: Math.floor(Date.now() / 1000) + 3600 })}.${Buffer.from("forged").toString("base64url")}`;
}

/** GET /api/auth/admin-check from outside the browser: does the server still accept this token? */
async function serverAccepts(accessToken: string): Promise<boolean> {
  const response = await fetch(`${app.url}/api/auth/admin-check`, { headers: { authorization: `Bearer ${accessToken}` } });
  return response.ok;
}

async function openAccountMenu(page: Page) {
  await avatarButton(page).click();
  const menu = page.getByRole("menu");
  await menu.waitFor();
  return menu;
}

describe.skipIf(browserUnavailable)("magic-link sign-in", () => {
  it("signs in end to end: dialog, mail, link, then /console signed in", async () => {
    const page = await app.newPage();
    const email = freshEmail("magic");
    await page.goto("/");
    await headerSignIn(page).click();
    const dialog = page.getByRole("dialog", { name: "Sign in to Smart Decision" });
    await dialog.getByLabel("Email").fill(`  ${email.toUpperCase()}  `);
    const [request] = await Promise.all([
      page.waitForRequest((r) => new URL(r.url()).pathname === "/api/auth/magic-link/request"),
      dialog.getByRole("button", { name: "Send magic link" }).click(),
    ]);
    expect(request.postDataJSON()).toEqual({ email: email.toUpperCase() });
    await toast(page, "Magic link sent!").waitFor();
    await toast(page, AUTH_MESSAGES.magicLinkSent).waitFor();
    await dialog.waitFor({ state: "detached" });

    const { link } = magicLinkToken((await mail().nextTo(email)).text);
    expect(link.startsWith(`${PUBLIC_URL}/auth/callback?token=`)).toBe(true);
    const url = new URL(link);
    await page.goto(url.pathname + url.search);
    await page.waitForURL((u) => u.pathname === "/console");
    // A magic-link account has no name: the display name is the part of the email before the @.
    await page.getByRole("heading", { level: 1, name: `Welcome, ${email.split("@")[0]}` }).waitFor();
    await toast(page, "Success!").waitFor();
    await toast(page, "You have been signed in successfully.").waitFor();
    // Toasts sit at the bottom, clear of the sticky header: they never cover the avatar menu.
    const header = await page.getByRole("banner").boundingBox();
    const toasts = await page.locator("[data-sonner-toaster]").boundingBox();
    expect(toasts!.y).toBeGreaterThanOrEqual(header!.y + header!.height);
    const chip = page.getByRole("region", { name: "Your account" });
    expect(await chip.textContent()).toContain(email);
    await chip.getByText("Verified", { exact: true }).waitFor();
    await page.getByRole("main").getByRole("link", { name: "Make a Decision" }).waitFor();
    expect(await page.getByRole("main").getByRole("link", { name: "Manage API Keys" }).getAttribute("href")).toBe("/settings");
    expect(await page.getByRole("main").getByRole("button", { name: "Sign In / Sign Up" }).count()).toBe(0);

    const stored = await storedSession(page);
    expect(stored.user).toMatchObject({ email, name: null, is_verified: true });
    expect(stored.tokens).toMatchObject({ access_token: expect.any(String), refresh_token: expect.any(String), expires_in: 900 });
    expect(await serverAccepts(stored.tokens!.access_token)).toBe(true);
    await avatarButton(page).waitFor();
    expect(await headerSignIn(page).count()).toBe(0);

    // The link is single-use: opened again, it is refused and the visitor goes home.
    const again = await app.newPage();
    await again.goto(url.pathname + url.search);
    await toast(again, "Authentication Error").waitFor();
    await toast(again, AUTH_MESSAGES.invalidMagicLink).waitFor();
    await again.waitForURL((u) => u.pathname === "/");
    expect((await storedSession(again)).user).toBeNull();
  });

  it("keeps the session across a reload (read from storage on start)", async () => {
    const page = await app.newPage();
    const auth = await signInAs(page, freshEmail("reload"), "/console");
    await page.reload();
    await page.getByRole("heading", { level: 1, name: /^Welcome, reload\./ }).waitFor();
    expect((await storedSession(page)).tokens?.access_token).toBe(auth.tokens.access_token);
  });
});

describe.skipIf(browserUnavailable)("Google sign-in", () => {
  it("runs the trip to the provider and back, checks the state and lands on /console", async () => {
    const page = await app.newPage();
    // The provider redirects to PUBLIC_URL: hand that redirect to the app under test.
    await page.route(`${PUBLIC_URL}/**`, (route) => {
      const url = new URL(route.request().url());
      return route.fulfill({ status: 302, headers: { location: `${app.url}${url.pathname}${url.search}` } });
    });
    await page.goto("/");
    await headerSignIn(page).click();
    await page.getByRole("tab", { name: "Google" }).click();
    const issuer = op!.issuer;
    const [toProvider, callback] = await Promise.all([
      page.waitForRequest((r) => r.url().startsWith(issuer) && new URL(r.url()).searchParams.has("state")),
      page.waitForRequest((r) => new URL(r.url()).pathname === "/api/auth/google/callback"),
      page.getByRole("button", { name: "Continue with Google" }).click(),
    ]);
    // The browser went to the provider with the state it saved, and came back with it.
    const state = new URL(toProvider.url()).searchParams.get("state");
    expect(state).toBeTruthy();
    expect(callback.postDataJSON()).toMatchObject({ code: expect.any(String), state });
    await page.waitForURL((u) => u.origin === app.url && u.pathname === "/console");
    await page.getByRole("heading", { level: 1, name: "Welcome, Ada Lovelace" }).waitFor();
    await toast(page, "You have been signed in successfully.").waitFor();
    expect(await page.evaluate(() => sessionStorage.getItem("google_oauth_state"))).toBeNull();
    expect((await storedSession(page)).user).toMatchObject({ email: GOOGLE_ACCOUNT.email, name: "Ada Lovelace" });
    if (shots) await page.screenshot({ path: `${shots}/console-google-1280.png`, fullPage: true });
    const menu = await openAccountMenu(page);
    expect(await menu.locator("..").getByText("Ada Lovelace", { exact: true }).isVisible()).toBe(true);
    expect(await menu.locator("..").getByText(GOOGLE_ACCOUNT.email, { exact: true }).isVisible()).toBe(true);
    if (shots) await page.screenshot({ path: `${shots}/menu-google-1280.png` });
  });

  it("refuses a code and state this browser did not start, without asking the server", async () => {
    const page = await app.newPage();
    const calls = recordRequests(page, "/api/auth/google/callback");
    await page.goto("/auth/callback?code=stolen&state=not-mine");
    await toast(page, "Authentication Error").waitFor();
    await toast(page, AUTH_MESSAGES.invalidGoogleState).waitFor();
    await page.waitForURL((u) => u.pathname === "/");
    expect(calls).toHaveLength(0);
  });
});

describe.skipIf(browserUnavailable)("/auth/callback without a sign-in", () => {
  it("with no parameters: 'Invalid Request' and back to /", async () => {
    const page = await app.newPage();
    await page.goto("/auth/callback");
    await toast(page, "Invalid Request").waitFor();
    await toast(page, "No valid authentication parameters found.").waitFor();
    await page.waitForURL((u) => u.pathname === "/");
    await headerSignIn(page).waitFor();
  });

  it("with an error: 'Authentication Error' and back to /", async () => {
    const page = await app.newPage();
    await page.goto("/auth/callback?error=access_denied");
    await toast(page, "Authentication Error").waitFor();
    await toast(page, "Authentication was cancelled or failed.").waitFor();
    await page.waitForURL((u) => u.pathname === "/");
  });
});

describe.skipIf(browserUnavailable)("avatar menu", () => {
  it("shows 'User' and the email, links Console, Dashboard, API Settings and Log out (no Admin Dashboard)", async () => {
    const page = await app.newPage();
    const checks = recordRequests(page, "/api/auth/admin-check");
    const email = freshEmail("menu");
    const [adminCheck] = await Promise.all([
      page.waitForResponse((r) => new URL(r.url()).pathname === "/api/auth/admin-check"),
      signInAs(page, email),
    ]);
    expect(await adminCheck.json()).toEqual({ is_admin: false });
    expect(checks[0]?.headers().authorization).toMatch(/^Bearer /);
    expect(await avatarButton(page).getAttribute("aria-haspopup")).toBe("menu");
    expect(await avatarButton(page).getAttribute("aria-expanded")).toBe("false");

    const menu = await openAccountMenu(page);
    expect(await avatarButton(page).getAttribute("aria-expanded")).toBe("true");
    const items = await menu.getByRole("menuitem").allTextContents();
    expect(items.map((t) => t.trim())).toEqual(["Console", "Dashboard", "API Settings", "Log out"]);
    const hrefs = await menu.getByRole("menuitem").evaluateAll((els) => els.map((el) => el.getAttribute("href")));
    expect(hrefs).toEqual(["/console", "/dashboard", "/settings", null]);
    const popup = menu.locator("..");
    expect(await popup.getByText("User", { exact: true }).isVisible()).toBe(true);
    expect(await popup.getByText(email, { exact: true }).isVisible()).toBe(true);

    await menu.getByRole("menuitem", { name: "API Settings" }).click();
    await page.waitForURL((u) => u.pathname === "/settings");
    await menu.waitFor({ state: "detached" });
  });

  it("works from the keyboard: arrows move, Escape closes and returns focus", async () => {
    const page = await app.newPage();
    await signInAs(page, freshEmail("keys"));
    await avatarButton(page).focus();
    await page.keyboard.press("Enter");
    const menu = page.getByRole("menu");
    await menu.waitFor();
    const focused = () => page.evaluate(() => document.activeElement?.textContent?.trim() ?? "");
    expect(await focused()).toBe("Console");
    await page.keyboard.press("ArrowDown");
    expect(await focused()).toBe("Dashboard");
    await page.keyboard.press("ArrowUp");
    await page.keyboard.press("ArrowUp");
    expect(await focused()).toBe("Log out");
    await page.keyboard.press("Home");
    expect(await focused()).toBe("Console");
    await page.keyboard.press("Escape");
    await menu.waitFor({ state: "detached" });
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe("Account menu");

    await page.keyboard.press("ArrowUp");
    await menu.waitFor();
    expect(await focused()).toBe("Log out");
    await page.keyboard.press("Tab");
    await menu.waitFor({ state: "detached" });

    // A click elsewhere closes it too.
    await avatarButton(page).click();
    await menu.waitFor();
    // Middle left of the window: away from the header and the menu (top right) whatever the layout does meanwhile.
    const { height } = page.viewportSize()!;
    await page.mouse.click(5, Math.round(height / 2));
    await menu.waitFor({ state: "detached" });
  });

  it("adds Admin Dashboard for an ADMIN_EMAILS user", async () => {
    const page = await app.newPage();
    const [adminCheck] = await Promise.all([
      page.waitForResponse((r) => new URL(r.url()).pathname === "/api/auth/admin-check"),
      signInAs(page, ADMIN),
    ]);
    expect(await adminCheck.json()).toEqual({ is_admin: true });
    const menu = await openAccountMenu(page);
    const admin = menu.getByRole("menuitem", { name: "Admin Dashboard" });
    await admin.waitFor();
    expect(await admin.getAttribute("href")).toBe("/admin");
    await admin.click();
    await page.waitForURL((u) => u.pathname === "/admin");
  });

  it("Log out: calls the server with the bearer, clears storage and shows Sign In again", async () => {
    const page = await app.newPage();
    const auth = await signInAs(page, freshEmail("logout"), "/console");
    const menu = await openAccountMenu(page);
    const [logout] = await Promise.all([
      page.waitForResponse((r) => new URL(r.url()).pathname === "/api/auth/logout"),
      menu.getByRole("menuitem", { name: "Log out" }).click(),
    ]);
    expect(logout.request().method()).toBe("POST");
    expect(logout.request().headers().authorization).toBe(`Bearer ${auth.tokens.access_token}`);
    expect(logout.status()).toBe(200);
    await headerSignIn(page).waitFor();
    expect(await storedSession(page)).toEqual({ user: null, tokens: null });
    expect(await serverAccepts(auth.tokens.access_token)).toBe(false);
    await page.getByRole("heading", { level: 1, name: "Smart Decision Console" }).waitFor();
  });

  for (const viewport of [MOBILE, DESKTOP]) {
    it(`fits ${viewport.width} px with the menu open, even for a long email`, async () => {
      const page = await app.newPage(viewport);
      await signInAs(page, `a.very.long.address.for.the.avatar.menu.${++n}.${Date.now()}@example-company-with-a-long-domain.com`, "/console");
      await page.getByRole("heading", { level: 1 }).waitFor();
      expect(await overflowingElements(page)).toEqual([]);
      if (shots) await page.screenshot({ path: `${shots}/console-signed-in-${viewport.width}.png`, fullPage: true });
      await openAccountMenu(page);
      expect(await overflowingElements(page)).toEqual([]);
      const box = await page.getByRole("menu").locator("..").boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= viewport.width).toBe(true);
      if (shots) await page.screenshot({ path: `${shots}/menu-open-${viewport.width}.png` });
    });
  }
});

describe.skipIf(browserUnavailable)("/console signed in", () => {
  it("Sign Out logs out on the server, clears storage and goes to /", async () => {
    const page = await app.newPage();
    const auth = await signInAs(page, freshEmail("signout"), "/console");
    const chip = page.getByRole("region", { name: "Your account" });
    const [logout] = await Promise.all([
      page.waitForRequest((r) => new URL(r.url()).pathname === "/api/auth/logout"),
      chip.getByRole("button", { name: "Sign Out" }).click(),
    ]);
    expect(logout.headers().authorization).toBe(`Bearer ${auth.tokens.access_token}`);
    await page.waitForURL((u) => u.pathname === "/");
    await headerSignIn(page).waitFor();
    expect(await storedSession(page)).toEqual({ user: null, tokens: null });
    expect(await serverAccepts(auth.tokens.access_token)).toBe(false);
  });

  it("shows 'Unverified Account' for a user who is not verified (375 px)", async () => {
    const page = await app.newPage(MOBILE);
    const auth = await signInByMail(app.url, mail(), freshEmail("unverified"));
    await page.goto("/console");
    await storeSession(page, { user: { ...auth.user, name: "Grace Hopper", is_verified: false }, tokens: auth.tokens });
    await page.getByRole("heading", { level: 1, name: "Welcome, Grace Hopper" }).waitFor();
    await page.getByRole("region", { name: "Your account" }).getByText("Unverified Account").waitFor();
    expect(await overflowingElements(page)).toEqual([]);
    if (shots) await page.screenshot({ path: `${shots}/console-unverified-375.png`, fullPage: true });
  });
});

/**
 * Moves the clocks of the server and of the page's browser `ms` ahead, as time passing would: the
 * stack runs in this process, so faking Node's Date moves the gateway's (tokens are issued and
 * checked by it); the page needs `page.clock.install()` first. Timers are not faked.
 */
async function timeTravel(page: Page, ms: number, { browser = true } = {}) {
  if (!vi.isFakeTimers()) vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true });
  vi.setSystemTime(Date.now() + ms);
  if (browser) await page.clock.setSystemTime(Date.now());
}
const MINUTE = 60_000;
const DASHBOARD_EXPIRED = "Your session has expired. Please sign in again.";

describe.skipIf(browserUnavailable)("session expiry", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  // Two tabs on a loaded machine: more room than the default 30 s.
  it("a user returning after the access token's 15 minutes lands signed in, on reload and in a second tab, with one refresh", { timeout: 60_000 }, async () => {
    const page = await app.newPage();
    await page.clock.install();
    const email = freshEmail("returning");
    const auth = await signInAs(page, email, "/dashboard");
    const refreshes = answersTo(page.context(), "/api/auth/refresh");
    // The tab is reloaded and, while its refresh is held on the way to the server, a second tab is
    // opened: both renew the same stored session at once. Refreshes are held from before the clocks
    // move, so one the open page starts as its clock jumps waits too (the reload then aborts it).
    const held: (() => void)[] = [];
    const heldRefresh = () => held.splice(0).forEach((release) => release());
    let reloading = false;
    let announceHeld: () => void = () => undefined;
    const refreshHeld = new Promise<void>((announce) => (announceHeld = announce));
    await page.route("**/api/auth/refresh", async (route) => {
      await new Promise<void>((release) => {
        held.push(release);
        if (reloading) announceHeld();
      });
      // A refresh the reload aborted cannot continue.
      await route.continue().catch(() => undefined);
    });
    await timeTravel(page, 16 * MINUTE);
    expect(await serverAccepts(auth.tokens.access_token)).toBe(false);

    reloading = true;
    await page.reload();
    await refreshHeld;
    const second = await page.context().newPage();
    second.setDefaultTimeout(20_000);
    const secondRefreshes = recordRequests(second, "/api/auth/refresh");
    await second.goto("/console");
    // The second tab waits for its turn (or, were tabs not taking turns, sends its own refresh).
    const secondWaits = async () => (await second.evaluate(async () => (await navigator.locks.query()).pending ?? [])).length > 0;
    await expect.poll(async () => secondRefreshes.length > 0 || (await secondWaits()), { timeout: 15_000 }).toBe(true);
    heldRefresh();
    await second.getByRole("heading", { level: 1, name: `Welcome, ${email.split("@")[0]}` }).waitFor();
    await page.getByRole("heading", { level: 2, name: "No decisions yet" }).waitFor();
    for (const tab of [page, second]) await avatarButton(tab).waitFor();
    // One tab exchanged the refresh token, the other took the new tokens: a second use of the
    // rotated token would have ended the session on the server.
    expect(refreshes).toEqual([200]);
    expect(secondRefreshes).toHaveLength(0);
    const stored = await storedSession(second);
    expect(stored.tokens?.refresh_token).not.toBe(auth.tokens.refresh_token);
    expect(await storedSession(page)).toEqual(stored);
    expect(await serverAccepts(stored.tokens!.access_token)).toBe(true);
    expect(await toast(page, SESSION_EXPIRED).count()).toBe(0);
    expect(await page.getByText(DASHBOARD_EXPIRED).count()).toBe(0);
    expect(await overflowingElements(page)).toEqual([]);
    if (shots) await page.screenshot({ path: `${shots}/returning-signed-in-1280.png`, fullPage: true });
    await second.setViewportSize(MOBILE);
    expect(await overflowingElements(second)).toEqual([]);
    if (shots) await second.screenshot({ path: `${shots}/returning-signed-in-375.png`, fullPage: true });
  });

  it("a 401 mid-session (the server's clock past the token's expiry, the page's not) is refreshed once and the call retried", async () => {
    const page = await app.newPage();
    await page.clock.install();
    const auth = await signInAs(page, freshEmail("skewed"), "/dashboard");
    await page.getByRole("heading", { level: 2, name: "No decisions yet" }).waitFor();
    const lists = recordRequests(page, "/api/decision-history");
    const refreshes = recordRequests(page, "/api/auth/refresh");
    await timeTravel(page, 16 * MINUTE, { browser: false });
    const answers = answersTo(page, "/api/decision-history");
    await page.getByRole("button", { name: "Refresh Dashboard" }).click();
    await expect.poll(() => answers).toEqual([401, 200]);
    expect(refreshes).toHaveLength(1);
    const stored = await storedSession(page);
    expect(lists.map((r) => r.headers().authorization)).toEqual([`Bearer ${auth.tokens.access_token}`, `Bearer ${stored.tokens!.access_token}`]);
    await page.getByRole("heading", { level: 2, name: "No decisions yet" }).waitFor();
    expect(await avatarButton(page).isVisible()).toBe(true);
  });

  it("a user returning to a session ended elsewhere is told it expired and asked to sign in again", async () => {
    const page = await app.newPage();
    await page.clock.install();
    const auth = await signInAs(page, freshEmail("stale"), "/dashboard");
    // Signed out on another device: the refresh token is revoked with the session.
    await fetch(`${app.url}/api/auth/logout`, { method: "POST", headers: { authorization: `Bearer ${auth.tokens.access_token}` } });
    await timeTravel(page, 16 * MINUTE);
    const checks = recordRequests(page, "/api/auth/admin-check");
    const refreshes = answersTo(page, "/api/auth/refresh");
    await page.reload();
    await toast(page, SESSION_EXPIRED).waitFor();
    expect(refreshes).toEqual([401]);
    await page.getByRole("main").getByText(DASHBOARD_EXPIRED).waitFor();
    await headerSignIn(page).waitFor();
    expect(await storedSession(page)).toEqual({ user: null, tokens: null });
    expect(checks).toHaveLength(0);
    expect(await overflowingElements(page)).toEqual([]);
    if (shots) await page.screenshot({ path: `${shots}/dashboard-expired-1280.png`, fullPage: true });
    await page.setViewportSize(MOBILE);
    expect(await overflowingElements(page)).toEqual([]);
    if (shots) await page.screenshot({ path: `${shots}/dashboard-expired-375.png`, fullPage: true });
    await page.getByRole("main").getByRole("button", { name: "Sign in again" }).click();
    await page.getByRole("dialog", { name: "Sign in to Smart Decision" }).waitFor();
  });

  it("the 60-second check refreshes a token about to expire, so the user stays signed in", async () => {
    const page = await app.newPage();
    await page.clock.install();
    const auth = await signInAs(page, freshEmail("clock-refresh"), "/console");
    const refreshed = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/auth/refresh");
    await page.clock.fastForward("14:00");
    expect((await refreshed).status()).toBe(200);
    // The page's clock is frozen between fast-forwards: poll storage from here, not with in-page timers.
    await expect.poll(async () => (await storedSession(page)).tokens?.access_token).not.toBe(auth.tokens.access_token);
    expect(await avatarButton(page).isVisible()).toBe(true);
    expect((await storedSession(page)).tokens?.refresh_token).not.toBe(auth.tokens.refresh_token);
  });

  it("the 60-second check signs out once a token that cannot be refreshed expires, dispatching authStateChanged", async () => {
    const page = await app.newPage();
    await page.clock.install();
    await page.addInitScript(() => {
      const seen: number[] = [];
      Object.assign(window, { authEvents: seen });
      window.addEventListener("authStateChanged", () => seen.push(Date.now()));
    });
    const auth = await signInAs(page, freshEmail("clock"), "/console");
    const events = () => page.evaluate(() => (window as unknown as { authEvents: number[] }).authEvents.length);
    expect(await events()).toBe(1); // the one storeSession dispatched

    // A check while the token (15 minutes) is valid changes nothing.
    await page.clock.fastForward(60_000);
    expect((await storedSession(page)).tokens).not.toBeNull();
    expect(await avatarButton(page).isVisible()).toBe(true);

    // The session is ended elsewhere (e.g. signed out on another device): no refresh can save it.
    await fetch(`${app.url}/api/auth/logout`, { method: "POST", headers: { authorization: `Bearer ${auth.tokens.access_token}` } });
    await page.clock.fastForward("15:00");
    await toast(page, SESSION_EXPIRED).waitFor();
    await headerSignIn(page).waitFor();
    await page.getByRole("heading", { level: 1, name: "Smart Decision Console" }).waitFor();
    expect(await storedSession(page)).toEqual({ user: null, tokens: null });
    expect(await events()).toBeGreaterThanOrEqual(2);
  });
});

describe.skipIf(browserUnavailable)("token refresh", () => {
  it("a rejected access token is refreshed once and the request retried (admin check)", async () => {
    const page = await app.newPage();
    const auth = await signInByMail(app.url, mail(), ADMIN);
    const checks = recordRequests(page, "/api/auth/admin-check");
    const refreshes = recordRequests(page, "/api/auth/refresh");
    await page.goto("/");
    const forged = forgedAccessToken();
    await storeSession(page, { user: auth.user, tokens: { ...auth.tokens, access_token: forged } });
    const menu = await openAccountMenu(page);
    await menu.getByRole("menuitem", { name: "Admin Dashboard" }).waitFor();
    expect(refreshes).toHaveLength(1);
    expect(refreshes[0]?.postDataJSON()).toEqual({ refresh_token: auth.tokens.refresh_token });
    expect(checks.map((r) => r.headers().authorization)).toEqual([`Bearer ${forged}`, expect.not.stringContaining(forged)]);
    const stored = await storedSession(page);
    expect(stored.tokens?.refresh_token).not.toBe(auth.tokens.refresh_token);
    expect(await serverAccepts(stored.tokens!.access_token)).toBe(true);
  });

  it("when the refresh fails the user is logged out and told the session expired", async () => {
    const page = await app.newPage();
    const auth = await signInByMail(app.url, mail(), freshEmail("revoked"));
    // The session ends on the server (signed out elsewhere): both tokens stop working.
    const ended = await fetch(`${app.url}/api/auth/logout`, { method: "POST", headers: { authorization: `Bearer ${auth.tokens.access_token}` } });
    expect(ended.status).toBe(200);
    const refreshes = recordRequests(page, "/api/auth/refresh");
    await page.goto("/");
    await storeSession(page, auth);
    await toast(page, SESSION_EXPIRED).waitFor();
    await headerSignIn(page).waitFor();
    expect(refreshes).toHaveLength(1);
    expect(await storedSession(page)).toEqual({ user: null, tokens: null });
    expect(pathOf(page)).toBe("/");
  });
});

describe.skipIf(browserUnavailable)("the playground signed in", () => {
  it("decides through the authenticated endpoint, so the decision is the user's", async () => {
    const page = await app.newPage();
    const email = freshEmail("player");
    await signInAs(page, email, "/playground");
    await page.getByLabel("Question").fill("Which plan should we pick?");
    for (const choice of ["Basic", "Pro"]) {
      await page.getByRole("textbox", { name: "Choices" }).fill(choice);
      await page.keyboard.press("Enter");
    }
    const answered = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/ensembled-llm-categorical-decision");
    await page.getByRole("button", { name: "Get AI Decision" }).click();
    const response = await answered;
    expect(response.request().headers().authorization).toMatch(/^Bearer /);
    const { decision_id } = (await response.json()) as { decision_id: string };
    await toast(page, "Decision Complete!").waitFor();
    expect(await app.stack.store.decisions.findById(decision_id)).toMatchObject({ is_authenticated: true, user_email: email });
  });

  it("falls back to the public endpoint when the session cannot be refreshed", async () => {
    const page = await app.newPage();
    const auth = await signInAs(page, freshEmail("fallback"), "/playground");
    // The server forgets the session; the page still holds a token that looks valid.
    await fetch(`${app.url}/api/auth/logout`, { method: "POST", headers: { authorization: `Bearer ${auth.tokens.access_token}` } });
    await page.getByLabel("Question").fill("Tea or coffee?");
    for (const choice of ["Tea", "Coffee"]) {
      await page.getByRole("textbox", { name: "Choices" }).fill(choice);
      await page.keyboard.press("Enter");
    }
    const publicAnswer = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/ensembled-llm-categorical-decision-public");
    await page.getByRole("button", { name: "Get AI Decision" }).click();
    const { decision_id } = (await (await publicAnswer).json()) as { decision_id: string };
    await toast(page, "Decision Complete!").waitFor();
    expect(await app.stack.store.decisions.findById(decision_id)).toMatchObject({ is_authenticated: false, user_email: null });
  });
});

