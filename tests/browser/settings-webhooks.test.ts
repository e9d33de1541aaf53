import type { Page } from "playwright-core";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WEBHOOK_MESSAGES, WebhookEndpointListSchema, type AuthResponse, type WebhookEndpoint } from "@sd/contracts";
import { callApi } from "@sd/testing";
import { WebhookReceiver } from "@sd/testing/webhook-receiver";
import { browserUnavailable, DESKTOP, MOBILE, overflowingElements } from "./support/browser-app";
import { useHistoryApp } from "./support/history-app";

/**
 * The Webhooks section of /settings in Chromium against the real stack: endpoints added, edited,
 * rotated and deleted through the page, the signing secret shown once and read back from the
 * clipboard, a test event delivered by the real delivery worker to a loopback receiver (checked
 * with the copied secret) and seen in the delivery log, resent, and the worker's disabled notice
 * cleared by Re-enable.
 */

const app = useHistoryApp({ WEBHOOK_RETRY_DELAY_SCALE: "0.001" });

let receiver: WebhookReceiver;
beforeAll(async () => {
  if (browserUnavailable) return;
  receiver = await WebhookReceiver.start();
});
afterAll(async () => {
  await receiver?.close();
});

/** Where screenshots go when set (e.g. WEBHOOK_SCREENSHOTS=/tmp/shots-u). */
const shots = process.env.WEBHOOK_SCREENSHOTS;
const shoot = async (page: Page, name: string) => {
  if (shots) await page.screenshot({ path: `${shots}/${name}.png`, fullPage: true });
};

const section = (page: Page) => page.getByRole("region", { name: "Webhooks", exact: true });
const endpointRow = (page: Page, url: string) => section(page).getByTestId("webhook-endpoint").filter({ hasText: url });
const clipboardText = (page: Page) => page.evaluate(() => navigator.clipboard.readText());

async function openWebhooks(page: Page, auth: AuthResponse): Promise<void> {
  await app.openAs(page, auth, "/settings?section=webhooks");
  await section(page).getByRole("heading", { name: "Webhooks" }).waitFor();
}

async function serverEndpoints(auth: AuthResponse): Promise<WebhookEndpoint[]> {
  const answer = await callApi(app.url, "/api/webhooks", auth.tokens.access_token);
  expect(answer.status, answer.text).toBe(200);
  return WebhookEndpointListSchema.parse(answer.body);
}

/** Adds an endpoint through the dialog and returns the secret it showed (read from the clipboard after Copy). */
async function addThroughDialog(page: Page, url: string, description: string): Promise<string> {
  await section(page).getByRole("button", { name: "Add endpoint" }).click();
  const dialog = page.getByRole("dialog", { name: "Add endpoint" });
  await dialog.getByLabel("Endpoint URL").fill(url);
  await dialog.getByRole("checkbox", { name: /^batch\.completed/ }).uncheck();
  await dialog.getByRole("checkbox", { name: /Also my signed-in decisions/ }).check();
  await dialog.getByLabel("Description (optional)").fill(description);
  await dialog.getByRole("button", { name: "Add endpoint" }).click();
  const shown = page.getByRole("dialog", { name: "Endpoint added" });
  await shown.getByText("you will not see it again", { exact: false }).waitFor();
  const secret = await shown.getByRole("textbox", { name: "Signing secret" }).inputValue();
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
  await shown.getByRole("button", { name: "Copy signing secret" }).click();
  await expect.poll(() => clipboardText(page)).toBe(secret);
  return secret;
}

describe.skipIf(browserUnavailable)("settings: webhooks", () => {
  it("shows a new user the empty state and the Add endpoint dialog without overflow (375 and 1280 px)", async () => {
    const auth = await app.signIn("webhooks-empty");
    for (const viewport of [MOBILE, DESKTOP]) {
      const page = await app.newPage(viewport);
      await openWebhooks(page, auth);
      await section(page).getByText(WEBHOOK_MESSAGES.emptyState, { exact: true }).waitFor();
      expect(await page.getByRole("navigation", { name: "Settings sections" }).getByRole("link", { name: "Webhooks" }).getAttribute("aria-current")).toBe("page");
      expect(await overflowingElements(page)).toEqual([]);
      await shoot(page, `webhooks-empty-${viewport.width}`);
      await section(page).getByRole("button", { name: "Add endpoint" }).click();
      const dialog = page.getByRole("dialog", { name: "Add endpoint" });
      await dialog.waitFor();
      // Both events are chosen to start with; signed-in decisions are not.
      expect(await dialog.getByRole("checkbox", { name: /^decision\.completed/ }).isChecked()).toBe(true);
      expect(await dialog.getByRole("checkbox", { name: /^batch\.completed/ }).isChecked()).toBe(true);
      expect(await dialog.getByRole("checkbox", { name: /Also my signed-in decisions/ }).isChecked()).toBe(false);
      await shoot(page, `webhooks-add-dialog-${viewport.width}`);
    }
  });

  it("shows the API's own words for a refused endpoint", async () => {
    const auth = await app.signIn("webhooks-refused");
    const page = await app.newPage(DESKTOP);
    await openWebhooks(page, auth);
    await section(page).getByRole("button", { name: "Add endpoint" }).click();
    const dialog = page.getByRole("dialog", { name: "Add endpoint" });
    await dialog.getByLabel("Endpoint URL").fill("ftp://example.com/hook");
    await dialog.getByRole("button", { name: "Add endpoint" }).click();
    await dialog.getByRole("alert").getByText(WEBHOOK_MESSAGES.urlInvalid, { exact: true }).waitFor();
    await dialog.getByLabel("Endpoint URL").fill(`${receiver.url}/none`);
    await dialog.getByRole("checkbox", { name: /^decision\.completed/ }).uncheck();
    await dialog.getByRole("checkbox", { name: /^batch\.completed/ }).uncheck();
    await dialog.getByRole("button", { name: "Add endpoint" }).click();
    await dialog.getByRole("alert").getByText(WEBHOOK_MESSAGES.eventsRequired, { exact: true }).waitFor();
    expect(await serverEndpoints(auth)).toEqual([]);
  });

  it("adds an endpoint, shows its secret once, delivers a signed test event to it and logs it, and resends it", async () => {
    const auth = await app.signIn("webhooks-deliver");
    const url = receiver.script("/deliver", [{ status: 200, body: "thanks from the receiver" }]);
    const page = await app.newPage(DESKTOP);
    await openWebhooks(page, auth);
    const secret = await addThroughDialog(page, url, "Ticket router");
    await page.getByRole("dialog", { name: "Endpoint added" }).getByRole("button", { name: "Done" }).click();
    // Once: gone from the page with the dialog, and never in the server's answers after creation.
    const row = endpointRow(page, url);
    await row.getByText("Ticket router").waitFor();
    expect(await page.content()).not.toContain(secret);
    const [stored] = await serverEndpoints(auth);
    expect(stored).toMatchObject({ url, events: ["decision.completed"], include_signed_in_decisions: true, description: "Ticket router", active: true });
    expect(JSON.stringify(stored)).not.toContain(secret);
    await row.getByText("+ signed-in decisions").waitFor();

    await row.getByRole("button", { name: `Send test event to ${url}` }).click();
    const [request] = await receiver.received("/deliver", 1);
    // The copied secret verifies the delivery (Standard Webhooks).
    const event = new Webhook(secret).verify(request!.body, WebhookReceiver.signatureHeaders(request!)) as { type: string };
    expect(event.type).toBeTruthy();
    const eventId = String(request!.headers["webhook-id"]);
    const log = row.getByRole("list", { name: "Deliveries" });
    const first = log.getByTestId("webhook-delivery").filter({ has: page.getByText("HTTP 200", { exact: true }) });
    await first.waitFor();
    expect(await first.getAttribute("data-event-id")).toBe(eventId);
    await first.getByText("attempt 1", { exact: false }).waitFor();
    await first.getByText("Response").click();
    await first.getByText("thanks from the receiver").waitFor();
    expect(await overflowingElements(page)).toEqual([]);
    await shoot(page, "webhooks-log-1280");

    await first.getByRole("button", { name: /^Resend/ }).click();
    await receiver.received("/deliver", 2);
    await expect.poll(() => log.getByTestId("webhook-delivery").count(), { timeout: 15_000 }).toBe(2);
    expect(String(receiver.at("/deliver")[1]!.headers["webhook-id"])).toBe(eventId);

    const mobile = await app.newPage(MOBILE);
    await openWebhooks(mobile, auth);
    await endpointRow(mobile, url).getByRole("button", { name: "Delivery log" }).click();
    await endpointRow(mobile, url).getByTestId("webhook-delivery").first().waitFor();
    expect(await overflowingElements(mobile)).toEqual([]);
    await shoot(mobile, "webhooks-log-375");
  }, 60_000);

  it("edits an endpoint, rotates its secret (new one shown once, the old one kept 24 h) and deletes it after a confirm", async () => {
    const auth = await app.signIn("webhooks-manage");
    const url = receiver.script("/manage", [{ status: 204 }]);
    const page = await app.newPage(MOBILE);
    await openWebhooks(page, auth);
    const secret = await addThroughDialog(page, url, "First words");
    await page.getByRole("dialog", { name: "Endpoint added" }).getByRole("button", { name: "Done" }).click();
    const row = endpointRow(page, url);

    await row.getByRole("button", { name: `Edit ${url}` }).click();
    const edit = page.getByRole("dialog", { name: "Edit endpoint" });
    await edit.getByLabel("Description (optional)").fill("Second words");
    await edit.getByRole("checkbox", { name: /^batch\.completed/ }).check();
    await edit.getByRole("button", { name: "Save changes" }).click();
    await edit.waitFor({ state: "hidden" });
    await row.getByText("Second words").waitFor();
    expect((await serverEndpoints(auth))[0]).toMatchObject({ description: "Second words", events: ["decision.completed", "batch.completed"] });

    await row.getByRole("button", { name: `Rotate secret of ${url}` }).click();
    const rotate = page.getByRole("dialog", { name: "Rotate signing secret?" });
    await rotate.getByText("keeps signing deliveries", { exact: false }).waitFor();
    await rotate.getByRole("button", { name: "Rotate secret" }).click();
    const fresh = page.getByRole("dialog", { name: "New signing secret" });
    await fresh.getByText("The previous secret keeps working for 24 hours.").waitFor();
    const rotated = await fresh.getByRole("textbox", { name: "Signing secret" }).inputValue();
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    expect(await overflowingElements(page)).toEqual([]);
    await shoot(page, "webhooks-rotated-375");
    await fresh.getByRole("button", { name: "Done" }).click();
    await row.getByText("Previous secret signs until", { exact: false }).waitFor();
    expect(await page.content()).not.toContain(rotated);
    await shoot(page, "webhooks-endpoint-375");

    await row.getByRole("button", { name: `Delete ${url}` }).click();
    const confirm = page.getByRole("dialog", { name: "Delete endpoint" });
    await confirm.getByRole("button", { name: "Cancel" }).click();
    expect(await serverEndpoints(auth)).toHaveLength(1);
    await row.getByRole("button", { name: `Delete ${url}` }).click();
    await confirm.getByRole("button", { name: "Delete" }).click();
    await section(page).getByText(WEBHOOK_MESSAGES.emptyState, { exact: true }).waitFor();
    expect(await serverEndpoints(auth)).toEqual([]);
  }, 60_000);

  it("shows the worker's disabled notice in red, and Re-enable switches the endpoint back on and clears it", async () => {
    const auth = await app.signIn("webhooks-disabled");
    const url = receiver.script("/disabled", [{ status: 500 }]);
    const created = await callApi(app.url, "/api/webhooks", auth.tokens.access_token, { body: { url, events: ["batch.completed"] } });
    expect(created.status, created.text).toBe(201);
    const id = (created.body as { id: string }).id;
    const reason = WEBHOOK_MESSAGES.disabledAfterFailures("The receiver answered 500");
    await app.stack.store.webhookEndpoints.disable(id, reason);

    const page = await app.newPage(MOBILE);
    await openWebhooks(page, auth);
    const row = endpointRow(page, url);
    const notice = row.getByRole("alert");
    await notice.getByText(reason, { exact: true }).waitFor();
    expect(await row.getByRole("switch").getAttribute("aria-checked")).toBe("false");
    expect(await overflowingElements(page)).toEqual([]);
    await shoot(page, "webhooks-disabled-375");
    await notice.getByRole("button", { name: "Re-enable" }).click();
    await notice.waitFor({ state: "detached" });
    expect(await row.getByRole("switch").getAttribute("aria-checked")).toBe("true");
    expect((await serverEndpoints(auth))[0]).toMatchObject({ active: true, disabled_reason: null, failing_since: null });

    // The switch turns it off again (a pause by the user: no notice).
    await row.getByRole("switch").click();
    await expect.poll(async () => (await serverEndpoints(auth))[0]!.active).toBe(false);
    expect(await row.getByRole("alert").count()).toBe(0);
  });
});
