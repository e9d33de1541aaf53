import type { Page, Request } from "playwright-core";
import { describe, expect, it } from "vitest";
import { configuredModelVersion, ENSEMBLE_MODE_LABELS, ENSEMBLE_MODES, ProvidersResponseSchema } from "@sd/contracts";
import { browserUnavailable, DESKTOP, MOBILE, overflowingElements, useBrowserApp } from "./support/browser-app";

const app = useBrowserApp();

const WAITLIST = "/api/email-request";
const MAGIC_LINK = "/api/auth/magic-link/request";

/** The toast that shows `text` (title or description). */
const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]").filter({ hasText: text });

/** Every request the page makes to `path`, recorded from now on. */
function recordRequests(page: Page, path: string): Request[] {
  const seen: Request[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === path) seen.push(request);
  });
  return seen;
}

/** A fresh email address for this test run. */
const freshEmail = (name: string) => `${name}.${Date.now()}.${Math.random().toString(36).slice(2, 8)}@example.com`;

const signInDialog = (page: Page) => page.getByRole("dialog", { name: "Sign in to Smart Decision" });

describe.skipIf(browserUnavailable)("sign-in dialog", () => {
  it("opens from Sign In and from Get Started in the header", async () => {
    const page = await app.newPage();
    await page.goto("/");
    for (const name of ["Sign In", "Get Started"]) {
      await page.getByRole("banner").getByRole("button", { name, exact: true }).click();
      await signInDialog(page).waitFor();
      expect(await page.getByRole("tab", { name: "Magic link" }).getAttribute("aria-selected")).toBe("true");
      await page.keyboard.press("Escape");
      await signInDialog(page).waitFor({ state: "detached" });
    }
  });

  it("opens from the landing page's Get started and the console's Sign In / Sign Up card", async () => {
    const page = await app.newPage();
    await page.goto("/");
    await page.getByRole("main").getByRole("button", { name: "Get started", exact: true }).click();
    await signInDialog(page).waitFor();
    await page.keyboard.press("Escape");
    await signInDialog(page).waitFor({ state: "detached" });

    await page.goto("/console");
    await page.getByRole("main").getByRole("button", { name: "Sign In / Sign Up" }).click();
    await signInDialog(page).waitFor();
  });

  it("asks for an email when it is blank, without sending anything", async () => {
    const page = await app.newPage();
    const sent = recordRequests(page, MAGIC_LINK);
    await page.goto("/");
    await page.getByRole("banner").getByRole("button", { name: "Sign In", exact: true }).click();
    const dialog = signInDialog(page);
    expect(await dialog.getByLabel("Email").getAttribute("type")).toBe("email");
    await dialog.getByLabel("Email").fill("   ");
    await dialog.getByRole("button", { name: "Send magic link" }).click();
    await toast(page, "Email required").waitFor();
    await toast(page, "Please enter your email address.").waitFor();
    expect(sent).toHaveLength(0);
  });

  it("resets the email and the tab when closed", async () => {
    const page = await app.newPage();
    await page.goto("/");
    const open = () => page.getByRole("banner").getByRole("button", { name: "Sign In", exact: true }).click();

    await open();
    await signInDialog(page).getByLabel("Email").fill("ada@example.com");
    await page.getByRole("tab", { name: "Google" }).click();
    await signInDialog(page).getByRole("button", { name: "Continue with Google" }).waitFor();
    await signInDialog(page).getByRole("button", { name: "Close" }).click();
    await signInDialog(page).waitFor({ state: "detached" });

    await open();
    expect(await page.getByRole("tab", { name: "Magic link" }).getAttribute("aria-selected")).toBe("true");
    expect(await signInDialog(page).getByLabel("Email").inputValue()).toBe("");

    await signInDialog(page).getByLabel("Email").fill("grace@example.com");
    await page.keyboard.press("Escape");
    await signInDialog(page).waitFor({ state: "detached" });
    await open();
    expect(await signInDialog(page).getByLabel("Email").inputValue()).toBe("");
  });
});

describe.skipIf(browserUnavailable)("waitlist form", () => {
  /** The page's waitlist form, its field and its button. */
  const form = (page: Page) => {
    const root = page.getByRole("form", { name: "Join the waitlist" });
    return { root, email: root.getByLabel("Email address"), submit: root.getByRole("button", { name: "Request access" }) };
  };

  for (const path of ["/", "/contact"]) {
    it(`on ${path}: sends the trimmed email, shows the server's message, clears the field and stores the sign-up`, async () => {
      const page = await app.newPage();
      await page.goto(path);
      const { email, submit } = form(page);
      expect(await email.getAttribute("type")).toBe("email");
      expect(await email.getAttribute("required")).not.toBeNull();
      const address = freshEmail("waitlist");
      await email.fill(`  ${address}  `);
      const [request] = await Promise.all([page.waitForRequest((r) => new URL(r.url()).pathname === WAITLIST), submit.click()]);
      expect(request.postDataJSON()).toEqual({ email: address });
      await toast(page, "Success!").waitFor();
      await toast(page, "Thanks for joining the waitlist!").waitFor();
      expect(await email.inputValue()).toBe("");
      expect(await app.stack.store.waitlist.find(address)).toMatchObject({ email: address });
    });
  }

  it("shows 'Submitting...' and disables the button while the request is in flight", async () => {
    const page = await app.newPage();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(`**${WAITLIST}`, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto("/contact");
    const { root, email, submit } = form(page);
    await email.fill(freshEmail("busy"));
    await submit.click();
    const busy = root.getByRole("button", { name: "Submitting..." });
    await busy.waitFor();
    expect(await busy.isDisabled()).toBe(true);
    release();
    await toast(page, "Success!").waitFor();
    await root.getByRole("button", { name: "Request access" }).waitFor();
  });

  it("asks for an email when it is blank, without sending anything", async () => {
    const page = await app.newPage();
    const sent = recordRequests(page, WAITLIST);
    await page.goto("/");
    const { email, submit } = form(page);
    await email.fill("   ");
    await submit.click();
    await toast(page, "Email required").waitFor();
    await toast(page, "Please enter your email address.").waitFor();
    expect(sent).toHaveLength(0);
    expect(await email.evaluate((element) => element === document.activeElement)).toBe(true);
  });

  it("shows the server's message for an invalid email and a different one for a repeated email", async () => {
    const page = await app.newPage();
    await page.goto("/contact");
    const { email, submit } = form(page);
    await email.fill("not-an-email");
    await submit.click();
    await toast(page, "Please enter a valid email address.").waitFor();
    expect(await email.inputValue()).toBe("not-an-email");

    const address = freshEmail("twice");
    await app.stack.store.waitlist.join(address, null);
    await email.fill(address.toUpperCase());
    await submit.click();
    await toast(page, "You're already on the waitlist.").waitFor();
  });

  it("shows the rate limiter's detail", async () => {
    const page = await app.newPage();
    const detail = "Too many requests. Please wait an hour and try again.";
    await page.route(`**${WAITLIST}`, (route) => route.fulfill({ status: 429, json: { detail } }));
    await page.goto("/");
    const { email, submit } = form(page);
    await email.fill(freshEmail("limited"));
    await submit.click();
    await toast(page, detail).waitFor();
  });

  it("says something went wrong when the network fails", async () => {
    const page = await app.newPage();
    await page.route(`**${WAITLIST}`, (route) => route.abort("internetdisconnected"));
    await page.goto("/contact");
    const { email, submit } = form(page);
    const address = freshEmail("offline");
    await email.fill(address);
    await submit.click();
    await toast(page, "Something went wrong. Please try again later.").waitFor();
    expect(await email.inputValue()).toBe(address);
  });
});

describe.skipIf(browserUnavailable)("public pages", () => {
  it("landing: Start opens the playground, Learn More /sd-api, documentation /developers and a support mailto", async () => {
    const page = await app.newPage();
    await page.goto("/");
    const main = page.getByRole("main");
    await main.getByRole("link", { name: "Start", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/playground");
    // Where a visitor can ask a question at once, not a menu of cards in front of it.
    await page.getByRole("main").getByRole("heading", { level: 1, name: "Playground" }).waitFor();
    await page.getByRole("main").getByRole("textbox", { name: /question/i }).first().waitFor();
    await page.goBack();
    await main.getByRole("link", { name: "Learn More" }).click();
    await page.waitForURL((url) => url.pathname === "/sd-api");
    await page.goBack();
    await main.getByRole("link", { name: "Developer guide" }).click();
    await page.waitForURL((url) => url.pathname === "/developers");
    await page.goBack();
    expect(await main.getByRole("link", { name: "Email support" }).getAttribute("href")).toMatch(/^mailto:support@smartdecision\.ai/);
    const sample = await main.locator("pre").textContent();
    expect(sample).toContain(`${app.url}/api/ensembled-llm-categorical-decision-public`);
  });

  it("console: 'Make a Decision' goes to /playground", async () => {
    const page = await app.newPage();
    await page.goto("/console");
    await page.getByRole("heading", { level: 1, name: "Smart Decision Console" }).waitFor();
    await page.getByRole("main").getByRole("link", { name: "Make a Decision" }).click();
    await page.waitForURL((url) => url.pathname === "/playground");
  });

  it("landing: the waitlist does not promise API keys that any signed-in user can already create", async () => {
    const page = await app.newPage();
    await page.goto("/");
    const waitlist = page.getByRole("main").getByRole("region", { name: "Join the waitlist" });
    const text = (await waitlist.textContent()) ?? "";
    expect(text).toContain("API keys are yours as soon as you sign in.");
    expect(text).not.toMatch(/first to get API keys/i);
  });

  it("sd-api: lists every configured model with its model name and every ensemble mode, with true counts; links to /console and /developers, and mails sales", async () => {
    const page = await app.newPage();
    const { providers } = ProvidersResponseSchema.parse(await (await fetch(`${app.url}/api/providers`)).json());
    await page.goto("/sd-api");
    const main = page.getByRole("main");
    const grid = main.getByRole("region", { name: /models, one decision$/ });
    await grid.getByRole("heading", { level: 2, name: `${providers.length} models, one decision` }).waitFor();
    const cards = grid.getByRole("listitem");
    // Each card: the label the playground shows above the model's row, then the model that answers.
    expect(await cards.getByRole("heading", { level: 3 }).allInnerTexts()).toEqual(providers.map((p) => p.label));
    expect(await cards.locator("p").allInnerTexts()).toEqual(providers.map((p) => configuredModelVersion(p)));
    // The hero's figures: the value shown for a term.
    const figure = (term: string) => main.locator("dl > div").filter({ has: page.locator("dt", { hasText: new RegExp(`^${term}$`) }) }).locator("dd").innerText();
    expect(await figure("models")).toBe(String(providers.length));
    expect(await figure("ensemble modes")).toBe(String(ENSEMBLE_MODES.length));
    const modes = main.getByRole("region", { name: `${ENSEMBLE_MODES.length} ensemble modes` });
    expect(await modes.getByRole("heading", { level: 3 }).allInnerTexts()).toEqual(ENSEMBLE_MODES.map((m) => ENSEMBLE_MODE_LABELS[m]));
    expect(await main.textContent()).toContain("99.9% uptime");
    expect(await main.getByRole("link", { name: "Contact Sales" }).getAttribute("href")).toMatch(/^mailto:sales@smartdecision\.ai/);
    await main.getByRole("link", { name: "Read the Docs" }).click();
    await page.waitForURL((url) => url.pathname === "/developers");
    await page.goBack();
    await main.getByRole("link", { name: "Try it in the Console" }).click();
    await page.waitForURL((url) => url.pathname === "/console");
  });

  it("contact: a Contact Support card with the support email, a mailto action and the 24-hour promise", async () => {
    const page = await app.newPage();
    await page.goto("/contact");
    const card = page.getByRole("region", { name: "Contact Support" });
    await card.getByText("We typically respond within 24 hours").waitFor();
    expect(await card.getByRole("link", { name: "support@smartdecision.ai" }).getAttribute("href")).toBe("mailto:support@smartdecision.ai");
    expect(await card.getByRole("link", { name: "Email Support" }).getAttribute("href")).toMatch(/^mailto:support@smartdecision\.ai\?subject=/);
  });
});

/** Full-page screenshots, in slices of 1200 px so each one stays legible: `<prefix>-<n>.png`. */
async function screenshots(page: Page, prefix: string) {
  const { width, height } = await page.evaluate(() => ({ width: document.documentElement.clientWidth, height: document.documentElement.scrollHeight }));
  for (let y = 0, n = 0; y < height; y += 1200, n += 1) {
    await page.screenshot({ path: `${prefix}-${n}.png`, fullPage: true, clip: { x: 0, y, width, height: Math.min(1200, height - y) } });
  }
}

/** The pages this suite owns. */
const PAGES = ["/", "/console", "/developers", "/sd-api", "/privacy", "/terms", "/contact", "/no-such-page"];

describe.skipIf(browserUnavailable)("layout", () => {
  const shots = process.env.SITE_SCREENSHOTS;

  for (const [label, viewport] of [
    ["375 px", MOBILE],
    ["1280 px", DESKTOP],
  ] as const) {
    it(`fits every page, header and footer in ${label} without overflow`, async () => {
      const page = await app.newPage(viewport);
      for (const path of PAGES) {
        await page.goto(path);
        await page.getByRole("main").getByRole("heading", { level: 1 }).first().waitFor();
        await page.getByRole("contentinfo").waitFor();
        expect(await overflowingElements(page), `${path} at ${label}`).toEqual([]);
        if (shots) await screenshots(page, `${shots}/${path === "/" ? "landing" : path.slice(1)}-${viewport.width}`);
      }
    });
  }

  it("fits the open mobile menu and the sign-in dialog in 375 px", async () => {
    const page = await app.newPage(MOBILE);
    await page.goto("/");
    await page.getByRole("heading", { level: 1 }).waitFor();
    await page.getByRole("button", { name: "Open menu" }).click();
    await page.locator("#mobile-menu").waitFor();
    expect(await overflowingElements(page)).toEqual([]);
    if (shots) await page.screenshot({ path: `${shots}/menu-375.png` });
    await page.locator("#mobile-menu").getByRole("button", { name: "Sign In", exact: true }).click();
    const dialog = signInDialog(page);
    await dialog.waitFor();
    const box = await dialog.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= MOBILE.width).toBe(true);
    if (shots) await page.screenshot({ path: `${shots}/sign-in-375.png` });
  });

  it("fits every developers tab in 375 px", async () => {
    const page = await app.newPage(MOBILE);
    await page.goto("/developers");
    for (const tab of ["Python", "JavaScript", "TypeScript", "REST API"]) {
      await page.getByRole("tab", { name: tab }).click();
      await page.getByRole("tabpanel", { name: tab }).waitFor();
      expect(await overflowingElements(page), tab).toEqual([]);
      if (shots) await screenshots(page, `${shots}/developers-${tab.replace(" ", "-")}-375`);
    }
  });
});
