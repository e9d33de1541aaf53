import { describe, expect, it } from "vitest";
import { browserUnavailable, MOBILE, overflowingElements, useBrowserApp } from "./support/browser-app";

const app = useBrowserApp();

describe.skipIf(browserUnavailable)("navigation", () => {
  it("shows the 404 page for an unknown path", async () => {
    const page = await app.newPage();
    await page.goto("/no-such-page");
    await page.getByText("Oops! Page not found").waitFor();
  });

  it("has no horizontal overflow on a phone", async () => {
    const page = await app.newPage(MOBILE);
    await page.goto("/");
    expect(await overflowingElements(page)).toEqual([]);
  });
});
