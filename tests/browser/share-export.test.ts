import { spawnSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { EXPORT_CSV_COLUMNS, SHARE_MESSAGES, type AuthResponse, type StoredDecision } from "@sd/contracts";
import { callApi } from "@sd/testing";
import { browserUnavailable, DESKTOP, MOBILE, overflowingElements } from "./support/browser-app";
import { pngDataUrl, useHistoryApp } from "./support/history-app";

/**
 * Share links and the history export in Chromium against the real stack: the owner makes a link on
 * the decision page, a signed-out visitor opens it (read-only, noindex, nothing of the owner, images
 * only when chosen), the owner revokes it and the visitor's next load is the not-found page; the
 * dashboard's Export downloads the filtered history as CSV that a real CSV reader parses back.
 */

const app = useHistoryApp();

/** Where screenshots go when set (e.g. SHARE_SCREENSHOTS=/tmp/shots). */
const shots = process.env.SHARE_SCREENSHOTS;
const shoot = async (page: Page, name: string) => {
  if (shots) await page.screenshot({ path: `${shots}/${name}.png`, fullPage: true });
};

const section = (page: Page, name: string | RegExp) => page.getByRole("region", { name });

describe.skipIf(browserUnavailable)("share links", () => {
  let owner: AuthResponse;
  let decision: StoredDecision;
  const QUESTION = "Should the team move the offsite to Lisbon?";

  beforeAll(async () => {
    if (browserUnavailable) return;
    owner = await app.signIn("sharer");
    [decision] = (await app.seed(owner, [{ question: QUESTION, categories: ["Lisbon", "Berlin"], final_decision: "Lisbon", vote_counts: { Lisbon: 2, Berlin: 1 } }])) as [StoredDecision];
    const asset = await callApi(app.url, "/api/image-assets", owner.tokens.access_token, { body: { decisionHistory_id: decision.id, label: "image1", image_data: pngDataUrl(60, 40, 90) } });
    expect(asset.status, asset.text).toBe(201);
  });

  /** Makes a link on the owner's decision page and answers it as the page shows it. */
  async function createLink(page: Page, includeImages: boolean): Promise<string> {
    const share = section(page, "Share");
    if (includeImages) await share.getByLabel("Include the image in").check();
    await share.getByRole("button", { name: /Create share link|New link/ }).click();
    const link = share.getByTestId("share-link");
    await link.waitFor();
    return link.inputValue();
  }

  it("is off by default; the link opens the decision read-only for a signed-out visitor, noindex and without anything of the owner; revoked, it is a 404", async () => {
    const ownerPage = await app.newPage(DESKTOP);
    await app.openAs(ownerPage, owner, `/decision/${decision.id}`);
    const share = section(ownerPage, "Share");
    await share.getByText("Only you can see this decision.").waitFor();
    expect(await share.getByRole("button", { name: "Revoke link" }).count()).toBe(0);
    const link = await createLink(ownerPage, false);
    expect(link).toMatch(new RegExp(`^${app.url}/shared/[A-Za-z0-9_-]{43}$`));
    await share.getByText("Copy it now: it is shown only once.").waitFor();
    await shoot(ownerPage, "share-owner-1280");
    if (shots) await share.screenshot({ path: `${shots}/share-control-1280.png` });

    // A new context: no session, no storage.
    const visitor = await app.newPage(MOBILE);
    const response = await visitor.goto(link);
    expect(response?.status()).toBe(200);
    expect(response?.headers()["x-robots-tag"]).toBe("noindex");
    await visitor.getByRole("heading", { level: 1, name: QUESTION }).waitFor();
    expect(await visitor.locator('head meta[name="robots"]').getAttribute("content")).toBe("noindex");
    expect(await visitor.evaluate(() => localStorage.getItem("auth_token"))).toBeNull();
    await visitor.getByText("Shared read-only by its owner").waitFor();
    expect(await section(visitor, "Vote Results").getByRole("listitem").first().innerText()).toContain("Lisbon");
    // Images were not chosen: no section, no image.
    expect(await visitor.getByRole("region", { name: /^Images/ }).count()).toBe(0);
    expect(await visitor.locator("main img").count()).toBe(0);
    const text = await visitor.locator("body").innerText();
    for (const secret of [owner.user.email, owner.user.id, decision.id, decision.user_ip!]) expect(text).not.toContain(secret);
    // Nothing to do on it: no control that changes anything.
    expect(await visitor.getByRole("button", { name: /Revoke|Re-run|Create share link/ }).count()).toBe(0);
    expect(await overflowingElements(visitor)).toEqual([]);
    await shoot(visitor, "share-visitor-375");

    await share.getByRole("button", { name: "Revoke link" }).click();
    await share.getByText("Only you can see this decision.").waitFor();
    await visitor.reload();
    await visitor.getByRole("alert").getByText(SHARE_MESSAGES.notFound).waitFor();
    expect(await visitor.getByRole("heading", { level: 1, name: QUESTION }).count()).toBe(0);
    await shoot(visitor, "share-revoked-375");
  });

  it("shows the images only when the owner includes them, and keeps the state after a reload without showing the link again", async () => {
    const ownerPage = await app.newPage(MOBILE);
    await app.openAs(ownerPage, owner, `/decision/${decision.id}`);
    const link = await createLink(ownerPage, true);
    expect(await overflowingElements(ownerPage)).toEqual([]);
    await shoot(ownerPage, "share-owner-375");
    if (shots) await section(ownerPage, "Share").screenshot({ path: `${shots}/share-control-375.png` });

    const visitor = await app.newPage(DESKTOP);
    await visitor.goto(link);
    const images = visitor.getByRole("region", { name: "Images (1)" });
    await images.waitFor();
    expect(await images.locator("img").getAttribute("src")).toMatch(/^data:image\/png;base64,/);
    await shoot(visitor, "share-visitor-1280");

    await ownerPage.reload();
    const state = section(ownerPage, "Share").getByTestId("share-state");
    await state.waitFor();
    expect(await state.innerText()).toContain("with its images");
    expect(await section(ownerPage, "Share").getByTestId("share-link").count()).toBe(0);
  });
});

/** Parses CSV with Python's csv module (a real RFC 4180 reader), byte order mark included. */
function parseCsv(bytes: Buffer): string[][] {
  const script = "import csv, io, json, sys\nprint(json.dumps(list(csv.reader(io.StringIO(sys.stdin.buffer.read().decode('utf-8-sig'), newline='')))))";
  const run = spawnSync("python3", ["-c", script], { input: bytes });
  if (run.status !== 0) throw new Error(run.stderr.toString());
  return JSON.parse(run.stdout.toString()) as string[][];
}

describe.skipIf(browserUnavailable)("history export", () => {
  let user: AuthResponse;
  let matching: StoredDecision[];

  beforeAll(async () => {
    if (browserUnavailable) return;
    user = await app.signIn("exporter");
    const day = (d: number) => new Date(Date.UTC(2025, 2, d, 12));
    const stored = await app.seed(user, [
      { question: "Budget: =SUM(A1:A9) or more?", timestamp: day(1) },
      { question: 'Budget: "lean", or generous?', timestamp: day(2) },
      { question: "Hiring: now or later?", timestamp: day(3) },
      { question: "Budget: line one\nline two", timestamp: day(4) },
    ]);
    matching = stored.filter((d) => d.question.startsWith("Budget")).reverse();
  });

  it("downloads the filtered history as CSV from the dashboard's Export menu", async () => {
    for (const viewport of [MOBILE, DESKTOP]) {
      const page = await app.newPage(viewport);
      await app.openAs(page, user, "/dashboard?question=Budget");
      await page.getByText(`Showing ${matching.length} decisions`).waitFor();
      const exportButton = page.getByRole("button", { name: "Export" });
      await exportButton.click();
      const menu = page.getByRole("menu", { name: "Export the filtered history" });
      await menu.waitFor();
      expect(await overflowingElements(page)).toEqual([]);
      await shoot(page, `export-menu-${viewport.width}`);
      const [download] = await Promise.all([page.waitForEvent("download"), menu.getByRole("menuitem", { name: "CSV (spreadsheet)" }).click()]);
      expect(download.suggestedFilename()).toMatch(/^decisions-\d{4}-\d{2}-\d{2}\.csv$/);
      const [header, ...rows] = parseCsv(await readFile((await download.path())!));
      expect(header).toEqual([...EXPORT_CSV_COLUMNS]);
      const question = EXPORT_CSV_COLUMNS.indexOf("question");
      expect(rows.map((row) => row[0])).toEqual(matching.map((d) => d.id));
      expect(rows.map((row) => row[question])).toEqual(matching.map((d) => d.question));
      await exportButton.waitFor({ state: "visible" });
      expect(await exportButton.isEnabled()).toBe(true);
    }
  });
});
