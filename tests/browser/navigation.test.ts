import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { browserUnavailable, DESKTOP, MOBILE, useBrowserApp } from "./support/browser-app";

const app = useBrowserApp();

/** The header's nav links and the page each one lands on. */
const NAV = [
  { name: "API", path: "/sd-api" },
  { name: "Developers", path: "/developers" },
  { name: "Careers", path: "/careers" },
  // The demo is the playground itself, not the console's cards in front of it.
  { name: "Demo", path: "/playground" },
  { name: "Contact", path: "/contact" },
] as const;

const pathOf = (page: Page) => new URL(page.url()).pathname;

/**
 * Runs `click` and waits until the page at `path` shows its own main heading (the old page's
 * heading is marked first: a navigation keeps the old page on screen until the new one is loaded).
 */
async function clickAndLand(page: Page, click: () => Promise<void>, path: string) {
  // The current page must have rendered before it is marked: a lazily loaded page that renders
  // after the mark would otherwise pass for the destination while the next chunk loads.
  await page.locator("main h1").first().waitFor();
  await page.evaluate(() => document.querySelectorAll("main h1").forEach((h) => h.setAttribute("data-left", "")));
  await click();
  await page.waitForURL((url) => url.pathname === path);
  await page.locator("main h1:not([data-left])").first().waitFor();
  expect(pathOf(page)).toBe(path);
}

describe.skipIf(browserUnavailable)("header", () => {
  it("leads from every nav link to its page on a desktop", async () => {
    const page = await app.newPage(DESKTOP);
    await page.goto("/");
    const nav = page.getByRole("navigation", { name: "Main" });
    for (const item of NAV) {
      await clickAndLand(page, () => nav.getByRole("link", { name: item.name, exact: true }).click(), item.path);
      expect(await nav.getByRole("link", { name: item.name, exact: true }).getAttribute("aria-current")).toBe("page");
    }
    await clickAndLand(page, () => page.getByRole("link", { name: "Smart Decision home" }).click(), "/");
  });

  it("leads from every link of the mobile menu to its page, closing the menu", async () => {
    const page = await app.newPage(MOBILE);
    await page.goto("/");
    expect(await page.getByRole("navigation", { name: "Main" }).isVisible()).toBe(false);
    for (const item of NAV) {
      const toggle = page.getByRole("button", { name: "Open menu" });
      await toggle.click();
      expect(await page.getByRole("button", { name: "Close menu" }).getAttribute("aria-expanded")).toBe("true");
      await clickAndLand(page, () => page.getByRole("navigation", { name: "Mobile" }).getByRole("link", { name: item.name, exact: true }).click(), item.path);
      await page.getByRole("navigation", { name: "Mobile" }).waitFor({ state: "detached" });
    }
  });

  it("opens the mobile menu from the keyboard and offers Sign In and Get Started", async () => {
    const page = await app.newPage(MOBILE);
    await page.goto("/");
    await page.getByRole("button", { name: "Open menu" }).focus();
    await page.keyboard.press("Enter");
    const menu = page.locator("#mobile-menu");
    await menu.waitFor();
    await menu.getByRole("button", { name: "Get Started", exact: true }).click();
    await page.getByRole("dialog", { name: "Sign in to Smart Decision" }).waitFor();
    await menu.waitFor({ state: "detached" });
  });

  it("closes the mobile menu when the logo leads home", async () => {
    const page = await app.newPage(MOBILE);
    await page.goto("/contact");
    await page.getByRole("button", { name: "Open menu" }).click();
    await page.locator("#mobile-menu").waitFor();
    await clickAndLand(page, () => page.getByRole("link", { name: "Smart Decision home" }).click(), "/");
    await page.locator("#mobile-menu").waitFor({ state: "detached" });
    expect(await page.getByRole("button", { name: "Open menu" }).getAttribute("aria-expanded")).toBe("false");
  });
});

describe.skipIf(browserUnavailable)("footer", () => {
  it("shows the copyright with the current year and leads to the legal pages", async () => {
    const page = await app.newPage();
    await page.goto("/");
    const footer = page.getByRole("contentinfo");
    expect(await footer.textContent()).toContain(`© ${new Date().getFullYear()}`);

    await clickAndLand(page, () => footer.getByRole("link", { name: "Privacy Policy" }).click(), "/privacy");
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Privacy Policy");

    await clickAndLand(page, () => footer.getByRole("link", { name: "Terms of Service" }).click(), "/terms");
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Terms of Service");
  });

  it("is on every page, the 404 page too", async () => {
    const page = await app.newPage();
    for (const path of ["/console", "/developers", "/sd-api", "/contact", "/privacy", "/terms", "/no-such-page"]) {
      await page.goto(path);
      await page.getByRole("main").getByRole("heading", { level: 1 }).first().waitFor();
      expect(await page.getByRole("contentinfo").getByRole("link", { name: "Privacy Policy" }).count(), path).toBe(1);
    }
  });
});

describe.skipIf(browserUnavailable)("legal pages", () => {
  it("state the effective date and link to each other", async () => {
    const page = await app.newPage();
    await page.goto("/privacy");
    const article = page.getByRole("article");
    await article.getByText("Effective September 8, 2025").waitFor();
    await clickAndLand(page, () => article.getByRole("link", { name: "Terms of Service" }).click(), "/terms");
    await page.getByRole("article").getByText("Effective September 8, 2025").waitFor();
    await clickAndLand(page, () => page.getByRole("article").getByRole("link", { name: "Privacy Policy" }).last().click(), "/privacy");
  });

  it("say what the privacy policy promises about vendors and retention", async () => {
    const page = await app.newPage();
    await page.goto("/privacy");
    const text = (await page.getByRole("article").textContent()) ?? "";
    for (const phrase of ["OpenAI", "Google", "Anthropic", "five years", "30 days", "role-based access", "API keys", "waitlist", "job application"]) {
      expect(text, phrase).toContain(phrase);
    }
  });
});

describe.skipIf(browserUnavailable)("not-found page", () => {
  it("answers an unknown path with 'Oops! Page not found'", async () => {
    const page = await app.newPage();
    await page.goto("/no-such-page/at/all");
    await page.getByRole("heading", { level: 1, name: "Oops! Page not found" }).waitFor();
    expect(await page.title()).toContain("Page not found");
  });

  it("links to home, the playground, the API page, the developers page and a contact mailto", async () => {
    const page = await app.newPage();
    const targets = [
      { name: "Go Home", path: "/" },
      { name: "Try the Playground", path: "/playground" },
      { name: "API", path: "/sd-api" },
      { name: "Developers", path: "/developers" },
    ];
    for (const target of targets) {
      await page.goto("/missing");
      await page.getByRole("main").getByRole("link", { name: target.name, exact: true }).click();
      await page.waitForURL((url) => url.pathname === target.path);
    }
    await page.goto("/missing");
    const contact = page.getByRole("main").getByRole("link", { name: "Contact us" });
    expect(await contact.getAttribute("href")).toMatch(/^mailto:hello@smartdecision\.ai/);
  });
});
