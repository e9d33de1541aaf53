import { existsSync } from "node:fs";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll } from "vitest";
import { startStack, testEnv, type InProcessStack } from "@sd/testing";
import type { Emulator } from "@sd/provider-emulator";
import { useEmulator } from "@sd/provider-emulator/testing";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Why browser tests cannot run here, or null when they can. Printed when they are skipped. */
export const browserUnavailable: string | null = existsSync(CHROMIUM_PATH)
  ? null
  : `Chromium not found at ${CHROMIUM_PATH}: install it (apt-get install chromium) or set CHROMIUM_PATH`;
if (browserUnavailable) console.warn(`Skipping browser tests: ${browserUnavailable}`);

export const DESKTOP = { width: 1280, height: 800 };
export const MOBILE = { width: 375, height: 740 };

export interface BrowserApp {
  /** The gateway serving the built web app. */
  readonly url: string;
  readonly emulator: Emulator;
  readonly stack: InProcessStack;
  /** A fresh page (own cookies and storage) at the given viewport, closed after the test. */
  newPage(viewport?: { width: number; height: number }): Promise<Page>;
}

/**
 * Variables for the stack on top of `testEnv`'s; a function is called once the emulator runs, for
 * variables that name it (a fourth model's `<ID>_BASE_URL`).
 */
export type EnvOverrides = Record<string, string> | ((emulatorUrl: string) => Record<string, string>);

/**
 * The product as a visitor meets it: the gateway (serving web/dist), workers and aggregator on
 * real Redis, the provider emulator answering the real SDKs, and Debian's Chromium driven by
 * Playwright. One stack and one browser per test file.
 */
export function useBrowserApp(envOverrides: EnvOverrides = {}): BrowserApp {
  const emulator = useEmulator();
  let stack: InProcessStack | undefined;
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    if (browserUnavailable) return;
    stack = await startStack(testEnv(emulator.url, typeof envOverrides === "function" ? envOverrides(emulator.url) : envOverrides));
    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      headless: true,
      // This machine has no network beyond loopback: keep Chromium from calling home.
      args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    });
  });
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close()));
  });
  afterAll(async () => {
    await browser?.close();
    await stack?.close();
  });

  return {
    get url() {
      if (!stack) throw new Error("the app starts in beforeAll");
      return stack.url;
    },
    get stack() {
      if (!stack) throw new Error("the app starts in beforeAll");
      return stack;
    },
    emulator,
    async newPage(viewport = DESKTOP) {
      if (!browser || !stack) throw new Error("the browser starts in beforeAll");
      const context = await browser.newContext({ viewport, baseURL: stack.url });
      await context.grantPermissions(["clipboard-read", "clipboard-write"]);
      contexts.push(context);
      const page = await context.newPage();
      // Under the test's own timeout (30 s), so a wait that never ends fails naming its locator
      // or its step instead of as an anonymous test timeout.
      page.setDefaultTimeout(20_000);
      page.on("pageerror", (error) => {
        throw new Error(`uncaught error in the page: ${error.message}`);
      });
      return page;
    },
  };
}

/** True when nothing on the page is wider than the viewport (no horizontal scrolling, nothing cut). */
export async function overflowingElements(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const offenders: string[] = [];
    for (const element of Array.from(document.body.querySelectorAll<HTMLElement>("*"))) {
      const rect = element.getBoundingClientRect();
      if (rect.width === 0 || rect.height === 0) continue;
      const style = getComputedStyle(element);
      if (style.position === "fixed" || style.visibility === "hidden") continue;
      if (rect.right > width + 1 || rect.left < -1) {
        // Elements inside a horizontally scrollable box (code samples) are meant to scroll.
        let parent = element.parentElement;
        let scrolls = false;
        while (parent && parent !== document.body) {
          const overflow = getComputedStyle(parent).overflowX;
          if (overflow === "auto" || overflow === "scroll" || overflow === "hidden") {
            scrolls = true;
            break;
          }
          parent = parent.parentElement;
        }
        if (!scrolls) offenders.push(`${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ""}.${element.className}`.slice(0, 120));
      }
    }
    return offenders;
  });
}
