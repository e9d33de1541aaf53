import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import type { Page, Request } from "playwright-core";
import { describe, expect, it } from "vitest";
import { API_KEY_HEADER, ApiKeySchema, BatchCreatedSchema, BatchResultLineSchema, type AuthResponse, type Batch } from "@sd/contracts";
import { callApi } from "@sd/testing";
import { browserUnavailable, DESKTOP, MOBILE, overflowingElements } from "./support/browser-app";
import { useHistoryApp } from "./support/history-app";

/**
 * The dashboard's Batches tab in Chromium against the real stack: batches sent with an API key
 * through POST /v1/batches and run by the real batch runner on the provider emulator; their
 * progress followed live over Socket.IO, cancelled with a confirm, and their results downloaded.
 */

const app = useHistoryApp({ API_KEY_RATE_LIMIT_PER_MINUTE: "1000", BATCH_CONCURRENCY: "2" });

/** Where screenshots go when set (e.g. BATCH_SCREENSHOTS=/tmp/shots-u). */
const shots = process.env.BATCH_SCREENSHOTS;
const shoot = async (page: Page, name: string) => {
  if (shots) await page.screenshot({ path: `${shots}/${name}.png`, fullPage: true });
};

const BATCHES_PATH = "/api/batches";

async function newKey(auth: AuthResponse): Promise<string> {
  const answer = await callApi(app.url, "/api/api-keys", auth.tokens.access_token, { body: { name: "batches tab" } });
  expect(answer.status, answer.text).toBe(201);
  return ApiKeySchema.parse(answer.body).keyvalue!;
}

/** Sends a batch of `count` yes/no questions tagged `tag` with the key. */
async function postBatch(key: string, tag: string, count: number): Promise<Batch> {
  const body = Array.from({ length: count }, (_, i) => JSON.stringify({ custom_id: `line-${i + 1}`, prompt: `${tag} question ${i + 1}?`, valid_responses: ["Yes", "No"] })).join("\n");
  const answer = await callApi(app.url, "/v1/batches", null, { rawBody: `${body}\n`, headers: { [API_KEY_HEADER]: key, "content-type": "application/jsonl" } });
  expect(answer.status, answer.text).toBe(202);
  return BatchCreatedSchema.parse(answer.body);
}

const tab = (page: Page, name: "Decisions" | "Batches") => page.getByRole("tablist", { name: "Dashboard sections" }).getByRole("tab", { name });
const row = (page: Page, id: string) => page.locator(`[data-testid="batch-row"][data-batch-id="${id}"]`);
const bar = (page: Page, id: string) => row(page, id).getByRole("progressbar");

/** Every request the page makes to the batch list, recorded from now on. */
function listRequests(page: Page): Request[] {
  const seen: Request[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === BATCHES_PATH) seen.push(request);
  });
  return seen;
}

describe.skipIf(browserUnavailable)("dashboard: the Batches tab", () => {
  it("is a tab of its own, in the URL and reached with the arrow keys, and tells a new user how to send a batch (375 and 1280 px)", async () => {
    const auth = await app.signIn("no-batches");
    for (const viewport of [MOBILE, DESKTOP]) {
      const page = await app.newPage(viewport);
      await app.openAs(page, auth, "/dashboard");
      await page.getByRole("heading", { level: 1, name: /Decision History/ }).waitFor();
      expect(await tab(page, "Decisions").getAttribute("aria-selected")).toBe("true");
      await tab(page, "Decisions").focus();
      await page.keyboard.press("ArrowRight");
      await page.getByRole("heading", { level: 1, name: /Batches/ }).waitFor();
      await page.waitForURL((url) => url.searchParams.get("tab") === "batches");
      const empty = page.getByRole("heading", { name: "No batches yet" });
      await empty.waitFor();
      await page.getByText("POST /v1/batches").waitFor();
      expect(await overflowingElements(page)).toEqual([]);
      await shoot(page, `batches-empty-${viewport.width}`);
      await page.getByRole("main").getByRole("link", { name: "Developer guide" }).click();
      await page.waitForURL((url) => url.pathname === "/developers");
    }
  });

  it("shows a batch sent with a key, its progress reaching 100 % live (no list reload), then its results as a download", async () => {
    const auth = await app.signIn("batch-live");
    const key = await newKey(auth);
    const tag = `live-${randomUUID().slice(0, 8)}`;
    // Slow enough that the page sees the batch run, fast enough for the test.
    app.emulator.addRules({ match: { question_contains: tag }, latency_ms: 250, respond: { kind: "answer", category: "Yes" } });
    const page = await app.newPage(DESKTOP);
    await app.openAs(page, auth, "/dashboard?tab=batches");
    await page.getByRole("heading", { name: "No batches yet" }).waitFor();
    await page.getByText("Live", { exact: true }).waitFor();

    const batch = await postBatch(key, tag, 8);
    // The first event names a batch the page does not list yet: it reloads the list once.
    await row(page, batch.id).waitFor();
    const requests = listRequests(page);
    const seen = new Set<string>();
    await expect
      .poll(
        async () => {
          const now = await bar(page, batch.id).getAttribute("aria-valuenow");
          seen.add(now ?? "");
          return now;
        },
        { timeout: 20_000, interval: 50 },
      )
      .toBe("8");
    expect(await bar(page, batch.id).getAttribute("aria-valuemax")).toBe("8");
    // Moved through values in between: the bar followed the batch, it did not just jump at the end.
    expect([...seen].some((value) => Number(value) > 0 && Number(value) < 8)).toBe(true);
    await row(page, batch.id).getByText("8 of 8 done").waitFor();
    await row(page, batch.id).getByText("100%").waitFor();
    await row(page, batch.id).getByTestId("batch-status").getByText("Completed").waitFor();
    // Every step came over the socket: the list was not asked again (the fallback polls every 30 s while live).
    expect(requests.map((request) => request.url())).toEqual([]);
    expect(await row(page, batch.id).getByRole("button", { name: /^Cancel/ }).count()).toBe(0);
    await shoot(page, "batches-completed-1280");

    const [download] = await Promise.all([page.waitForEvent("download"), row(page, batch.id).getByRole("button", { name: `Download results of ${batch.id}` }).click()]);
    expect(download.suggestedFilename()).toBe(`${batch.id}-results.jsonl`);
    const lines = (await readFile((await download.path())!, "utf8")).trim().split("\n").map((line) => BatchResultLineSchema.parse(JSON.parse(line)));
    expect(lines.map((line) => [line.custom_id, line.status])).toEqual(Array.from({ length: 8 }, (_, i) => [`line-${i + 1}`, "completed"]));
  }, 60_000);

  it("cancels a running batch after a confirm: it ends cancelled, with no Cancel left (375 px)", async () => {
    const auth = await app.signIn("batch-cancel");
    const key = await newKey(auth);
    const tag = `cancel-${randomUUID().slice(0, 8)}`;
    app.emulator.addRules({ match: { question_contains: tag }, latency_ms: 400, respond: { kind: "answer", category: "No" } });
    const batch = await postBatch(key, tag, 40);
    const page = await app.newPage(MOBILE);
    await app.openAs(page, auth, "/dashboard?tab=batches");
    await row(page, batch.id).getByTestId("batch-status").getByText("In progress").waitFor();
    expect(await overflowingElements(page)).toEqual([]);
    await shoot(page, "batches-running-375");

    await row(page, batch.id).getByRole("button", { name: `Cancel ${batch.id}` }).click();
    const dialog = page.getByRole("dialog", { name: "Cancel this batch?" });
    // "Keep running" leaves it running.
    await dialog.getByRole("button", { name: "Keep running" }).click();
    await dialog.waitFor({ state: "hidden" });
    expect((await callApi(app.url, `/api/batches/${batch.id}`, auth.tokens.access_token)).body).toMatchObject({ status: "in_progress" });

    await row(page, batch.id).getByRole("button", { name: `Cancel ${batch.id}` }).click();
    await dialog.getByRole("button", { name: "Cancel batch" }).click();
    await dialog.waitFor({ state: "hidden" });
    await row(page, batch.id).getByTestId("batch-status").getByText("Cancelled").waitFor({ timeout: 20_000 });
    expect(await row(page, batch.id).getByRole("button", { name: `Cancel ${batch.id}` }).count()).toBe(0);
    const after = (await callApi(app.url, `/api/batches/${batch.id}`, auth.tokens.access_token)).body as Batch;
    expect(after.status).toBe("cancelled");
    expect(after.request_counts.completed).toBeLessThan(40);
    // The bar shows what was decided before the cancel took effect, of all 40.
    expect(await bar(page, batch.id).getAttribute("aria-valuenow")).toBe(String(after.request_counts.completed + after.request_counts.failed));
    await row(page, batch.id).getByRole("button", { name: `Download results of ${batch.id}` }).waitFor();
    expect(await overflowingElements(page)).toEqual([]);
    await shoot(page, "batches-cancelled-375");
  }, 60_000);

  it("never shows another user's batch, and answers its id with a 404", async () => {
    const owner = await app.signIn("batch-owner");
    const other = await app.signIn("batch-other");
    const batch = await postBatch(await newKey(owner), `private-${randomUUID().slice(0, 8)}`, 1);
    const page = await app.newPage(DESKTOP);
    await app.openAs(page, other, "/dashboard?tab=batches");
    await page.getByRole("heading", { name: "No batches yet" }).waitFor();
    for (const path of [`/api/batches/${batch.id}`, `/api/batches/${batch.id}/results`]) {
      const answer = await callApi(app.url, path, other.tokens.access_token);
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ detail: "Batch not found" });
    }
  });
});
