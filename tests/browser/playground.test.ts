import type { Locator, Page, WebSocketRoute } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_PROVIDERS } from "@sd/contracts";
import { signInByMail, SmtpCapture } from "@sd/testing";
import { pngImage } from "./support/png";
import { browserUnavailable, DESKTOP, MOBILE, overflowingElements, useBrowserApp } from "./support/browser-app";
import { addChoices, isPost, openPlayground as open, PUBLIC_DECISION_PATH as DECISION_PATH, type DecisionBody } from "./support/playground-page";
import type { VoteEvent } from "@sd/contracts";
import { formatProcessingTime } from "../../web/src/history/format";
import { formatCost, formatCount } from "../../web/src/settings/format";

const SUGGESTION_PATH = "/api/smart-suggestion-public";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

// ---- Test images -------------------------------------------------------------------------

const pngFile = (name: string, width: number, height: number, fill?: "gradient" | "noise") => ({
  name,
  mimeType: "image/png",
  buffer: pngImage(width, height, { fill }),
});

/** Width and height from a JPEG's start-of-frame segment. */
function jpegSize(jpeg: Buffer): { width: number; height: number } {
  if (jpeg[0] !== 0xff || jpeg[1] !== 0xd8) throw new Error("not a JPEG");
  let at = 2;
  while (at + 9 < jpeg.length) {
    if (jpeg[at] !== 0xff) throw new Error(`no marker at ${at}`);
    const marker = jpeg[at + 1]!;
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: jpeg.readUInt16BE(at + 5), width: jpeg.readUInt16BE(at + 7) };
    }
    at += 2 + jpeg.readUInt16BE(at + 2);
  }
  throw new Error("no start-of-frame segment");
}

function jpegDataUrlSize(dataUrl: string): { width: number; height: number } {
  const prefix = "data:image/jpeg;base64,";
  expect(dataUrl.startsWith(prefix)).toBe(true);
  return jpegSize(Buffer.from(dataUrl.slice(prefix.length), "base64"));
}

// ---- Page helpers ------------------------------------------------------------------------

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const overlaps = (a: Box, b: Box): boolean => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/**
 * The element's box once it has stopped moving (a toast slides in): after its running transitions
 * and animations have finished, the same box on two animation frames in a row.
 */
const settledBox = (locator: Locator): Promise<Box> =>
  locator.evaluate(async (element) => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    let last = "";
    for (;;) {
      await frame();
      await Promise.all(element.getAnimations({ subtree: true }).map((animation) => animation.finished.catch(() => undefined)));
      const { x, y, width, height } = element.getBoundingClientRect();
      const key = [x, y, width, height].join();
      if (key === last) return { x, y, width, height };
      last = key;
    }
  });

/** True when a click at the middle of the element reaches it (nothing, such as a toast, lies on top). */
const reachable = (locator: Locator): Promise<boolean> =>
  locator.evaluate((element) => {
    const { x, y, width, height } = element.getBoundingClientRect();
    const hit = document.elementFromPoint(x + width / 2, y + height / 2);
    return hit !== null && element.contains(hit);
  });

/** Hands a signed-in session to the page, as the sign-in flow stores it. */
async function storeSession(page: Page, session: { user: unknown; tokens: unknown }): Promise<void> {
  await page.evaluate(({ user, tokens }) => {
    localStorage.setItem("auth_user", JSON.stringify(user));
    localStorage.setItem("auth_token", JSON.stringify(tokens));
    window.dispatchEvent(new Event("authStateChanged"));
  }, session);
}

/** The live vote events the page received, as Socket.IO frames them (`42["decision:vote",{...}]`). */
function recordVotes(page: Page): VoteEvent[] {
  const votes: VoteEvent[] = [];
  page.on("websocket", (socket) =>
    socket.on("framereceived", ({ payload }) => {
      const text = String(payload);
      if (!text.startsWith("42")) return;
      const [name, event] = JSON.parse(text.slice(2)) as [string, VoteEvent];
      if (name === "decision:vote") votes.push(event);
    }),
  );
  return votes;
}

/** The rows' and the final card's text for tokens, as the playground writes them. */
const tokensText = (input: number, output: number) => `${formatCount(input)} in / ${formatCount(output)} out tokens`;

const OPENAI = "OpenAI GPT-4o";
const GEMINI = "Google Gemini 2.5 Flash";
// The label of the model Claude runs (the spec's Sonnet 3.5 is retired), as /api/providers gives it.
const CLAUDE = DEFAULT_PROVIDERS.claude.label;

describe.skipIf(browserUnavailable)("playground", () => {
  // Per-model timeouts above the scripted latencies (the test environment's default is 2 s).
  const env: Record<string, string> = { OPENAI_TIMEOUT_MS: "10000", GEMINI_TIMEOUT_MS: "10000", CLAUDE_TIMEOUT_MS: "10000", MAGIC_LINK_PER_IP_PER_HOUR: "1000" };
  // Sign-in mail is captured by a real SMTP server, started before the stack that sends to it.
  let smtp: SmtpCapture | undefined;
  beforeAll(async () => {
    smtp = await SmtpCapture.start();
    env.SMTP_URL = smtp.url;
  });
  afterAll(async () => {
    await smtp?.close();
  });
  const app = useBrowserApp(env);
  let accounts = 0;
  const signIn = () => {
    if (!smtp) throw new Error("the SMTP capture starts in beforeAll");
    return signInByMail(app.url, smtp, `playground.${++accounts}.${Date.now()}@example.com`);
  };

  it("shows each model's vote, confidence and reason as it arrives, then the final decision", async () => {
    const reasons = {
      openai: "The release is tested and the team is around on Friday.",
      gemini: "Shipping now gets the fix to users a week sooner.",
      claude: "A Friday deploy leaves nobody to fix a bad release.",
    };
    app.emulator.addRules([
      { match: { vendor: "openai" }, latency_ms: 200, respond: { kind: "answer", category: "Yes", confidence: 0.874, rationale: reasons.openai } },
      { match: { vendor: "gemini" }, latency_ms: 1200, respond: { kind: "answer", category: "Yes", confidence: 0.6, rationale: reasons.gemini } },
      { match: { vendor: "anthropic" }, latency_ms: 2500, respond: { kind: "answer", category: "No", confidence: 0.95, rationale: reasons.claude } },
    ]);
    const page = await app.newPage();
    const ui = await open(page);
    await ui.row(OPENAI).getByText("Waiting for a question").waitFor();
    await ui.question.fill("Should we ship on Friday?");
    await addChoices(ui, "Yes", "No");

    const posted = page.waitForRequest(isPost(DECISION_PATH));
    const answered = page.waitForResponse((r) => isPost(DECISION_PATH)(r.request()));
    await ui.submitButton.click();
    const body = (await posted).postDataJSON() as DecisionBody;
    expect(body).toEqual({ question: "Should we ship on Friday?", categories: ["Yes", "No"], request_id: expect.stringMatching(UUID) });

    await ui.row(CLAUDE).getByText("Processing...").waitFor();
    await ui.row(GEMINI).getByText("Processing...").waitFor();
    expect(await ui.submitButton.isDisabled()).toBe(true);

    // Live: OpenAI's answer, confidence and reason show while the others are still being asked (before the HTTP answer).
    await ui.row(OPENAI).getByText("Yes", { exact: true }).waitFor();
    await ui.row(OPENAI).getByText(reasons.openai).waitFor();
    expect(await ui.row(OPENAI).textContent()).toContain("Confidence: 87%");
    expect(await ui.row(CLAUDE).textContent()).toContain("Processing...");
    expect(await ui.row(CLAUDE).textContent()).not.toContain("Confidence");
    await page.screenshot({ path: "/tmp/playground-live.png" });
    await ui.row(GEMINI).getByText("Yes", { exact: true }).waitFor();
    await ui.row(GEMINI).getByText(reasons.gemini).waitFor();
    expect(await ui.row(CLAUDE).textContent()).toContain("Processing...");
    expect(await ui.row(OPENAI).getAttribute("data-status")).toBe("success");
    await ui.row(CLAUDE).getByText("No", { exact: true }).waitFor();
    expect((await answered).status()).toBe(200);

    await ui.toast("Decision Complete!").getByText("Final decision: Yes").waitFor();
    const card = ui.finalCard;
    await card.getByText("Yes", { exact: true }).first().waitFor();
    const votes = card.getByRole("list", { name: "Vote results" }).getByRole("listitem");
    expect(await votes.allInnerTexts()).toEqual(["Yes\n2 votes", "No\n1 vote"]);
    // Each row keeps its confidence and reason after the final answer.
    for (const [label, reason, confidence] of [
      [OPENAI, reasons.openai, "87%"],
      [GEMINI, reasons.gemini, "60%"],
      [CLAUDE, reasons.claude, "95%"],
    ] as const) {
      await ui.row(label).getByText(reason).waitFor();
      expect(await ui.row(label).textContent()).toContain(`Confidence: ${confidence}`);
    }
    // "Why this decision?": the outcome, then one short line per model with its reason, nothing repeated.
    const why = card.getByRole("list", { name: "Why this decision?" }).getByRole("listitem");
    const lines = await why.allInnerTexts();
    expect(lines).toHaveLength(4);
    expect(new Set(lines).size).toBe(lines.length);
    for (const [label, reason] of [
      [OPENAI, reasons.openai],
      [GEMINI, reasons.gemini],
      [CLAUDE, reasons.claude],
    ] as const) {
      const own = lines.filter((line) => line.includes(label));
      expect(own, label).toHaveLength(1);
      expect(own[0]).toContain(reason);
      expect(lines.filter((line) => line.includes(reason)), reason).toHaveLength(1);
    }
    expect(await page.getByRole("link", { name: "View History" }).getAttribute("href")).toBe("/dashboard");
    expect(await ui.submitButton.isEnabled()).toBe(true);
  });

  it("shows a failing model as Failed and still decides", async () => {
    app.emulator.addRules([
      { match: { vendor: "anthropic" }, respond: { kind: "error", status: 500 } },
      { match: { vendor: "openai" }, respond: { kind: "answer", category: "Blue" } },
      { match: { vendor: "gemini" }, respond: { kind: "answer", category: "Blue" } },
    ]);
    const page = await app.newPage();
    const ui = await open(page);
    await ui.question.fill("Which colour for the logo?");
    await addChoices(ui, "Red", "Blue");
    await ui.submitButton.click();

    await ui.row(CLAUDE).getByText("Failed").waitFor();
    await ui.toast("Decision Complete!").getByText("Final decision: Blue").waitFor();
    await ui.row(OPENAI).getByText("Blue", { exact: true }).waitFor();
    await ui.row(GEMINI).getByText("Blue", { exact: true }).waitFor();
    expect(await ui.finalCard.getByRole("list", { name: "Vote results" }).getByRole("listitem").allInnerTexts()).toEqual([
      "Blue\n2 votes",
      "Red\n0 votes",
    ]);
  });

  it("shows each model's latency, tokens and cost once its vote is final, and the decision's totals, as stored", async () => {
    const usage = { openai: { input_tokens: 1200, output_tokens: 40 }, gemini: { input_tokens: 800, output_tokens: 25 }, claude: { input_tokens: 1500, output_tokens: 60 } };
    app.emulator.addRules([
      { match: { vendor: "openai" }, latency_ms: 150, respond: { kind: "answer", category: "Yes", usage: usage.openai } },
      { match: { vendor: "gemini" }, latency_ms: 300, respond: { kind: "answer", category: "Yes", usage: usage.gemini } },
      { match: { vendor: "anthropic" }, latency_ms: 1200, respond: { kind: "answer", category: "No", usage: usage.claude } },
    ]);
    const page = await app.newPage();
    const votes = recordVotes(page);
    const ui = await open(page);
    await ui.question.fill("Which release train?");
    await addChoices(ui, "Yes", "No");
    const answered = page.waitForResponse((r) => isPost(DECISION_PATH)(r.request()));
    await ui.submitButton.click();
    const { decision_id } = (await (await answered).json()) as { decision_id: string };
    const stored = (await app.stack.store.decisions.findById(decision_id))!;

    for (const [label, provider] of [
      [OPENAI, "openai"],
      [GEMINI, "gemini"],
      [CLAUDE, "claude"],
    ] as const) {
      const row = ui.row(label);
      await row.getByText(tokensText(stored.token_usage[provider]!.input_tokens, stored.token_usage[provider]!.output_tokens)).waitFor();
      const vote = votes.find((v) => v.provider === provider && v.status === "success")!;
      expect(vote.usage, provider).toEqual(stored.token_usage[provider]);
      expect(await row.getByText(formatProcessingTime(vote.latency_ms), { exact: true }).count(), `${provider} latency`).toBe(1);
      expect(await row.getByText(formatCost(vote.cost_usd!), { exact: true }).count(), `${provider} cost`).toBe(1);
    }
    // The scripted latencies, so the figure is the call's and not a default.
    expect(votes.find((v) => v.provider === "claude" && v.status === "success")!.latency_ms).toBeGreaterThanOrEqual(1200);
    // The card's totals are the stored decision's: its cost, and the tokens of all its calls.
    const settledCost = votes.filter((v) => v.status !== "pending").reduce((sum, v) => sum + (v.cost_usd ?? 0), 0);
    expect(settledCost).toBeCloseTo(stored.cost_usd, 12);
    expect(stored.cost_usd).toBeGreaterThan(0);
    const tokens = Object.values(stored.token_usage);
    const totals = ui.finalCard.getByRole("group", { name: "Decision totals" });
    await totals.getByText(formatCost(stored.cost_usd), { exact: true }).waitFor();
    expect(await totals.innerText()).toContain(
      tokensText(
        tokens.reduce((sum, u) => sum + u!.input_tokens, 0),
        tokens.reduce((sum, u) => sum + u!.output_tokens, 0),
      ),
    );
    expect(await totals.innerText()).toContain("From 3 model calls");
    await page.screenshot({ path: "/tmp/shots/playground-usage-1280.png", fullPage: true });
    await page.setViewportSize(MOBILE);
    expect(await overflowingElements(page)).toEqual([]);
    await ui.row(OPENAI).scrollIntoViewIfNeeded();
    await page.screenshot({ path: "/tmp/shots/playground-usage-375.png" });
  });

  it("takes the 'Question required' and 'Categories required' toasts away as soon as the input is valid", async () => {
    const page = await app.newPage();
    await page.clock.install();
    const ui = await open(page);
    // Frozen time: a toast that goes did so because its input was fixed, not because its 4 s ran out
    // (time is moved on by hand, well under 4 s in all, for the toasts' enter and exit animations).
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 100);
    const settle = () => page.clock.runFor(400);
    const form = page.locator("form").filter({ has: ui.submitButton });
    const submit = () => form.evaluate((element: HTMLFormElement) => element.requestSubmit());
    /** Dismissed (sonner marks it removed on the next frame), then gone once its exit animation has run. */
    const gone = async (toast: Locator) => {
      await settle();
      await toast.and(page.locator('[data-removed="true"]')).waitFor();
      await settle();
      await toast.waitFor({ state: "detached" });
    };

    const questionToast = ui.toast("Question required");
    await submit();
    await settle();
    await questionToast.waitFor();
    await ui.question.fill("   ");
    await settle();
    expect(await questionToast.isVisible(), "a blank question is still no question").toBe(true);
    await ui.question.fill("Tea or coffee?");
    await gone(questionToast);

    const choicesToast = ui.toast("Categories required");
    await submit();
    await settle();
    await choicesToast.waitFor();
    await addChoices(ui, "Tea");
    await settle();
    expect(await choicesToast.isVisible(), "one choice is not enough").toBe(true);
    await addChoices(ui, "Coffee");
    await gone(choicesToast);

    // The suggestions' 'Question is required' goes the same way.
    await ui.question.fill("");
    const suggestionToast = ui.toast("Question is required");
    await ui.suggestButton.click();
    await settle();
    await suggestionToast.waitFor();
    await ui.question.fill("Tea or coffee?");
    await gone(suggestionToast);
  });

  it("enables Get AI Decision only with a question and two choices; trims and ignores empty and duplicate choices", async () => {
    const page = await app.newPage();
    const ui = await open(page);
    let decisionRequests = 0;
    page.on("request", (request) => {
      if (isPost(DECISION_PATH)(request)) decisionRequests += 1;
    });
    expect(await ui.submitButton.isDisabled()).toBe(true);
    // The disabled button is not the only guard: a submit by other means is refused with the spec's toasts.
    const form = page.locator("form").filter({ has: ui.submitButton });
    await form.evaluate((element: HTMLFormElement) => element.requestSubmit());
    await ui.toast("Question required").getByText("Please enter a question for the AI to decide on.").waitFor();

    await ui.question.fill("Tea or coffee?");
    expect(await ui.submitButton.isDisabled()).toBe(true);
    await form.evaluate((element: HTMLFormElement) => element.requestSubmit());
    await ui.toast("Categories required").getByText("Please provide at least 2 valid response categories.").waitFor();

    await ui.choiceInput.fill("  Tea  ");
    await ui.choiceInput.press("Enter"); // Enter adds, and never submits the form
    expect(await ui.choices.allInnerTexts()).toEqual(["Tea"]);
    expect(await ui.choiceInput.inputValue()).toBe("");
    expect(await ui.submitButton.isDisabled()).toBe(true);

    await ui.choiceInput.fill("   ");
    await ui.addButton.click();
    await ui.choiceInput.fill("Tea");
    await ui.addButton.click();
    await ui.addButton.click(); // empty input
    expect(await ui.choices.allInnerTexts()).toEqual(["Tea"]);

    await ui.choiceInput.fill("Coffee");
    await ui.addButton.click();
    expect(await ui.choices.allInnerTexts()).toEqual(["Tea", "Coffee"]);
    expect(await ui.submitButton.isEnabled()).toBe(true);
    await ui.choiceInput.press("Enter"); // Enter in the choice input never submits, even when it could
    expect(await ui.row(OPENAI).getAttribute("data-status")).toBe("idle");

    await ui.question.fill("   ");
    expect(await ui.submitButton.isDisabled()).toBe(true);
    await ui.question.fill("Tea or coffee?");
    expect(await ui.submitButton.isEnabled()).toBe(true);

    await page.getByRole("button", { name: "Remove Tea" }).click();
    expect(await ui.choices.allInnerTexts()).toEqual(["Coffee"]);
    expect(await ui.submitButton.isDisabled()).toBe(true);
    expect(decisionRequests).toBe(0);
  });

  it("suggests choices with their confidence, adds a picked one and drops those already chosen", async () => {
    app.emulator.addRules({ match: { vendor: "gemini" }, respond: { kind: "answer", category: "Maybe", confidence: 0.87 } });
    const page = await app.newPage();
    const ui = await open(page);

    await ui.suggestButton.click();
    await ui.toast("Question is required").waitFor();

    await ui.question.fill("Should I learn Rust?");
    await addChoices(ui, "Yes");
    const posted = page.waitForRequest(isPost(SUGGESTION_PATH));
    await ui.suggestButton.click();
    expect((await posted).postDataJSON()).toEqual({ question: "Should I learn Rust?", images: [], existing_choices: ["Yes"] });
    const maybe = page.getByRole("button", { name: "Maybe 87%" });
    await maybe.click();
    expect(await ui.choices.allInnerTexts()).toEqual(["Yes", "Maybe"]);
    expect(await maybe.count()).toBe(0);

    // Scripted answers: one matches a choice in other letter case and is dropped.
    const answers = [
      [{ category: "yes", confidence: 0.9 }, { category: "Later", confidence: 0.42 }, { category: "Never", confidence: 0.3 }],
      [{ category: "MAYBE", confidence: 0.8 }],
    ];
    await page.route(`**${SUGGESTION_PATH}`, (route) => route.fulfill({ json: { suggestions: answers.shift() ?? [] } }));
    await ui.suggestButton.click();
    const later = page.getByRole("button", { name: "Later 42%" });
    await later.waitFor();
    expect(await page.getByRole("button", { name: /^yes \d+%$/i }).count()).toBe(0);
    await page.getByRole("button", { name: "Never 30%" }).click();
    expect(await later.isVisible()).toBe(true); // picking removes only the picked one
    expect(await ui.choices.allInnerTexts()).toEqual(["Yes", "Maybe", "Never"]);

    await addChoices(ui, "Soon"); // adding a category clears the suggestions
    await later.waitFor({ state: "detached" });

    await ui.suggestButton.click();
    await ui.toast("No new suggestions").getByText("All AI suggestions are already in your choices.").waitFor();

    await page.unroute(`**${SUGGESTION_PATH}`);
    await page.route(`**${SUGGESTION_PATH}`, (route) => route.fulfill({ status: 502, json: { detail: "Failed to get suggestions" } }));
    await ui.suggestButton.click();
    await ui.toast("Error getting suggestions").getByText("Failed to get suggestions").waitFor();
  });

  it("downscales images to JPEG at most 1024 wide and refuses non-images, big files and a fourth image", async () => {
    const page = await app.newPage();
    const ui = await open(page);

    await ui.fileInput.setInputFiles(pngFile("wide.png", 1600, 900));
    await page.getByRole("img", { name: "Image 1: wide.png" }).waitFor();

    await ui.fileInput.setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hello") });
    await ui.toast("Invalid file type").getByText("Please select only image files.").waitFor();

    await ui.fileInput.setInputFiles({ name: "huge.png", mimeType: "image/png", buffer: Buffer.alloc(10 * 1024 * 1024) });
    await ui.toast("File too large").getByText("Please select images smaller than 10MB.").waitFor();

    await ui.fileInput.setInputFiles({ name: "broken.png", mimeType: "image/png", buffer: Buffer.from("not really a png") });
    await ui.toast("Image processing error").getByText("Failed to process the image. Please try again.").waitFor();
    expect(await ui.thumbnails.count()).toBe(1);

    await ui.fileInput.setInputFiles([pngFile("small.png", 300, 200), pngFile("third.png", 1200, 1200), pngFile("fourth.png", 50, 50)]);
    await ui.toast("Maximum images reached").getByText("You can only upload up to 3 images.").waitFor();
    await page.getByRole("img", { name: "Image 3: third.png" }).waitFor();
    expect(await ui.thumbnails.count()).toBe(3);

    await page.getByRole("button", { name: "Remove image 3" }).click();
    expect(await ui.thumbnails.count()).toBe(2);

    await ui.question.fill("Which photo is better?");
    await addChoices(ui, "First", "Second");
    const posted = page.waitForRequest(isPost(DECISION_PATH));
    await ui.submitButton.click();
    const { images } = (await posted).postDataJSON() as DecisionBody;
    expect(images).toHaveLength(2);
    expect(jpegDataUrlSize(images![0]!)).toEqual({ width: 1024, height: 576 });
    expect(jpegDataUrlSize(images![1]!)).toEqual({ width: 300, height: 200 }); // never upscaled
    await ui.toast("Decision Complete!").waitFor();
    expect(app.emulator.calls().every((call) => call.image_count === 2)).toBe(true);
  });

  it("marks every model failed and explains a response it cannot read", async () => {
    const page = await app.newPage();
    const ui = await open(page);
    await page.route(`**${DECISION_PATH}`, (route) => route.fulfill({ status: 200, contentType: "application/json", body: "<html>oops" }));
    await ui.question.fill("Is this JSON?");
    await addChoices(ui, "Yes", "No");
    await ui.submitButton.click();
    await ui.toast("Error").getByText("Server returned an invalid response. Please try again.").waitFor();
    for (const label of [OPENAI, GEMINI, CLAUDE]) await ui.row(label).getByText("Failed").waitFor();
    expect(await page.getByRole("heading", { name: "Final Decision" }).count()).toBe(0);
  });

  it("still decides from the HTTP answer when live progress is unavailable", async () => {
    app.emulator.addRules({ respond: { kind: "answer", category: "Later" } });
    const page = await app.newPage();
    await page.routeWebSocket(/\/socket\.io\//, (ws) => ws.close());
    await page.route("**/socket.io/**", (route) => route.abort());
    const ui = await open(page);
    await ui.question.fill("Deploy now or later?");
    await addChoices(ui, "Now", "Later");
    await ui.submitButton.click();
    await ui.toast("Decision Complete!").getByText("Final decision: Later").waitFor();
    for (const label of [OPENAI, GEMINI, CLAUDE]) await ui.row(label).getByText("Later", { exact: true }).waitFor();
  });

  it("follows the request again after the live connection drops mid-decision", async () => {
    app.emulator.addRules([
      { match: { vendor: "openai" }, latency_ms: 3500, respond: { kind: "answer", category: "Up" } },
      { match: { vendor: "gemini" }, latency_ms: 3500, respond: { kind: "answer", category: "Up" } },
      { match: { vendor: "anthropic" }, latency_ms: 7000, respond: { kind: "answer", category: "Down" } },
    ]);
    const page = await app.newPage();
    const connections: WebSocketRoute[] = [];
    let connected: () => void = () => undefined;
    let reconnected = new Promise<void>((resolve) => (connected = resolve));
    await page.routeWebSocket(/\/socket\.io\//, (ws) => {
      ws.connectToServer();
      connections.push(ws);
      connected();
    });
    const ui = await open(page);
    await reconnected;
    await ui.question.fill("Up or down?");
    await addChoices(ui, "Up", "Down");
    const posted = page.waitForRequest(isPost(DECISION_PATH));
    await ui.submitButton.click();
    await posted; // the room was joined (or given up on) before posting

    reconnected = new Promise<void>((resolve) => (connected = resolve));
    await connections[0]!.close();
    await reconnected;
    await ui.row(OPENAI).getByText("Up", { exact: true }).waitFor();
    expect(await ui.row(CLAUDE).textContent()).toContain("Processing...");
    await ui.toast("Decision Complete!").getByText("Final decision: Up").waitFor();
  });

  it("says when answers are real: no simulated banner with API keys configured", async () => {
    const page = await app.newPage();
    const providers = page.waitForResponse((r) => new URL(r.url()).pathname === "/api/providers");
    await open(page);
    expect((await providers).ok()).toBe(true);
    await page.getByRole("list", { name: "Model responses" }).getByText(CLAUDE).waitFor();
    expect(await page.getByRole("complementary", { name: "Simulated answers" }).count()).toBe(0);
  });

  for (const viewport of [MOBILE, DESKTOP]) {
    it(`at ${viewport.width} px, the 'Decision Complete!' toast covers neither 'View History' nor the account menu`, async () => {
      app.emulator.addRules({ respond: { kind: "answer", category: "Ship" } });
      const session = await signIn();
      const page = await app.newPage(viewport);
      const ui = await open(page);
      await storeSession(page, session);
      const account = page.getByRole("banner").getByRole("button", { name: "Account menu" });
      await account.waitFor();
      await ui.question.fill("Ship the release today?");
      await addChoices(ui, "Ship", "Wait");
      const posted = page.waitForRequest(isPost("/api/ensembled-llm-categorical-decision"));
      await ui.submitButton.click();
      await posted; // signed in: the authenticated endpoint

      const toast = ui.toast("Decision Complete!");
      await toast.getByText("Final decision: Ship").waitFor();
      const viewHistory = page.getByRole("link", { name: "View History" });
      // The user goes for 'View History' (on a phone the results were scrolled into view, so it is above).
      await viewHistory.scrollIntoViewIfNeeded();
      const toastBox = await settledBox(toast);
      expect(await toast.isVisible()).toBe(true);
      expect(toastBox.y).toBeGreaterThanOrEqual(0);
      expect(toastBox.y + toastBox.height).toBeLessThanOrEqual(viewport.height);
      for (const [name, target] of [
        ["View History", viewHistory],
        ["Account menu", account],
      ] as const) {
        expect(overlaps(toastBox, await settledBox(target)), `the toast covers ${name}`).toBe(false);
        expect(await reachable(target), `${name} can be clicked`).toBe(true);
      }
      await page.screenshot({ path: `/tmp/playground-toast-${viewport.width}.png` });
    });
  }

  for (const [name, viewport] of [
    ["mobile", MOBILE],
    ["desktop", DESKTOP],
  ] as const) {
    it(`fits a ${viewport.width} px wide screen with a decision, images and suggestions`, async () => {
      app.emulator.addRules([
        { match: { vendor: "gemini" }, times: 1, respond: { kind: "answer", category: "A rather long suggested category name", confidence: 0.66 } },
        { match: { vendor: "anthropic" }, respond: { kind: "error", status: 500 } },
      ]);
      const page = await app.newPage(viewport);
      const ui = await open(page);
      expect(await overflowingElements(page)).toEqual([]);

      await ui.question.fill("Which of these long-winded options should our team choose for the next quarter's roadmap?");
      await addChoices(ui, "Option A with a long descriptive name", "Option B", "Supercalifragilisticexpialidocious-without-spaces");
      await ui.fileInput.setInputFiles([pngFile("one.png", 1600, 900), pngFile("two.png", 400, 800)]);
      await page.getByRole("img", { name: "Image 2: two.png" }).waitFor();
      await ui.suggestButton.click();
      await page.getByRole("button", { name: /A rather long suggested category name/ }).waitFor();
      await ui.submitButton.click();
      await ui.toast("Decision Complete!").waitFor();
      await ui.row(CLAUDE).getByText("Failed").waitFor();
      await page.getByRole("heading", { name: "Why this decision?" }).waitFor();

      expect(await overflowingElements(page)).toEqual([]);
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: `/tmp/playground-${name}.png`, fullPage: true });
    });
  }
});

describe.skipIf(browserUnavailable)("playground with a 1 MB body limit and a simulated model", () => {
  // A low per-IP limit, which the last test uses up (the others stay under it).
  const RATE_LIMIT = 3;
  const limited = useBrowserApp({ BODY_LIMIT_MB: "1", CLAUDE_API_KEY: "", SIMULATED_LATENCY_MS: "100", RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT) });

  it("shows a banner naming the simulated model, whose answer is labelled simulated", async () => {
    const page = await limited.newPage(MOBILE);
    const ui = await open(page);
    const banner = page.getByRole("complementary", { name: "Simulated answers" });
    await banner.getByText(CLAUDE).waitFor();
    expect(await banner.textContent()).toContain("Answers are simulated.");
    expect(await banner.textContent()).not.toContain(OPENAI);

    await ui.question.fill("Is the banner visible?");
    await addChoices(ui, "Yes", "No");
    await ui.submitButton.click();
    await ui.toast("Decision Complete!").waitFor();
    await ui.row(CLAUDE).getByText(/\(simulated\)$/).waitFor();
    // A simulated answer costs nothing and its token counts are the simulator's: it says so and shows none.
    await ui.row(CLAUDE).getByText("Simulated: no cost").waitFor();
    expect(await ui.row(CLAUDE).textContent()).not.toMatch(/tokens|\$/);
    await ui.row(OPENAI).getByText(/ in \/ \d+ out tokens$/).waitFor();
    expect(await overflowingElements(page)).toEqual([]);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: "/tmp/playground-simulated-mobile.png", fullPage: true });
  });

  it("explains a 413 from the server as images that are too large", async () => {
    const page = await limited.newPage();
    const ui = await open(page);
    await ui.fileInput.setInputFiles([pngFile("noise-1.png", 1024, 1400, "noise"), pngFile("noise-2.png", 1024, 1400, "noise")]);
    await page.getByRole("img", { name: "Image 2: noise-2.png" }).waitFor();
    await ui.question.fill("Which noise is louder?");
    await addChoices(ui, "First", "Second");

    const answered = page.waitForResponse((r) => isPost(DECISION_PATH)(r.request()));
    await ui.submitButton.click();
    expect((await answered).status()).toBe(413);
    await ui.toast("Error").getByText("Images are too large. Please try with smaller images or fewer images.").waitFor();
    for (const label of [OPENAI, GEMINI, CLAUDE]) await ui.row(label).getByText("Failed").waitFor();
  });

  it("shows a rate limit as what it is: a notice with the server's text and a countdown, and no model marked Failed", async () => {
    // Use up this address's decisions for the minute (an empty body is refused, and still counts).
    let refused: Response | undefined;
    for (let i = 0; i <= 2 * RATE_LIMIT && !refused; i++) {
      const response = await fetch(`${limited.url}${DECISION_PATH}`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
      if (response.status === 429) refused = response;
      else await response.body?.cancel();
    }
    expect(refused?.status).toBe(429);
    const detail = ((await refused!.json()) as { detail: string }).detail;

    const page = await limited.newPage(MOBILE);
    await page.clock.install();
    const ui = await open(page);
    await ui.question.fill("Is the limit reached?");
    await addChoices(ui, "Yes", "No");
    const answered = page.waitForResponse((r) => isPost(DECISION_PATH)(r.request()));
    await ui.submitButton.click();
    const response = await answered;
    expect(response.status()).toBe(429);
    const retryAfter = Number(response.headers()["retry-after"]);
    expect(retryAfter).toBeGreaterThan(0);

    const notice = page.getByRole("alert").filter({ hasText: "Too many decisions" });
    await notice.waitFor();
    expect(await notice.textContent()).toContain(detail);
    expect(await notice.textContent()).toContain("No model was asked, so none failed.");
    const countdown = page.getByText(/^You can try again in \d+ s\.$/);
    const seconds = Number(/(\d+) s/.exec(await countdown.innerText())![1]);
    expect(seconds).toBeLessThanOrEqual(retryAfter);
    expect(seconds).toBeGreaterThan(retryAfter - 5);
    // No row failed: each says it was not asked; no error toast stands in for the notice.
    for (const label of [OPENAI, GEMINI, CLAUDE]) await ui.row(label).getByText("Not asked").waitFor();
    expect(await ui.rows.filter({ hasText: "Failed" }).count()).toBe(0);
    expect(await page.locator('[data-status="error"]').count()).toBe(0);
    expect(await ui.toast("Error").count()).toBe(0);
    expect(await ui.submitButton.isDisabled()).toBe(true);
    await page.getByRole("button", { name: /^Get AI Decision in \d+ s$/ }).waitFor();
    expect(await overflowingElements(page)).toEqual([]);
    await page.screenshot({ path: "/tmp/shots/playground-rate-limit-375.png", fullPage: true });
    await page.setViewportSize(DESKTOP);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: "/tmp/shots/playground-rate-limit-1280.png" });

    // Once the server's wait has passed, the button is back and the notice says so.
    await page.clock.fastForward((retryAfter + 1) * 1000);
    await page.getByText("You can try again now.").waitFor();
    expect(await ui.submitButton.isEnabled()).toBe(true);
    expect(await notice.isVisible()).toBe(true);
  });
});
