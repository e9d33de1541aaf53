import { readFile } from "node:fs/promises";
import type { Page, Route } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_PROVIDERS, ImageAssetListResponseSchema, type AuthResponse, type DecisionHistoryItem, type ImageAsset, type StoredDecision } from "@sd/contracts";
import { callApi } from "@sd/testing";
import { browserUnavailable, DESKTOP, MOBILE, overflowingElements } from "./support/browser-app";
import { paintedHue } from "./support/colours";
import { definition, terms } from "./support/definitions";
import { pngBytes, pngDataUrl, useHistoryApp } from "./support/history-app";
import { formatProcessingTime } from "../../web/src/history/format";
import { formatCost } from "../../web/src/settings/format";

/**
 * /decision/{id} in Chromium against the real stack: a decision made through the authenticated
 * endpoint with images (stored once, as the user's image assets), seeded decisions for every
 * badge colour and fallback, the error alerts, and every control and key of the image viewer.
 */

const app = useHistoryApp();

/** Where screenshots go when set (e.g. DETAIL_SCREENSHOTS=/tmp/shots). */
const shots = process.env.DETAIL_SCREENSHOTS;

const OPENAI = "OpenAI GPT-4o";
const GEMINI = "Google Gemini 2.5 Flash";
// The label of the model Claude runs (the spec's Sonnet 3.5 is retired), as /api/providers gives it.
const CLAUDE = DEFAULT_PROVIDERS.claude.label;
const DETAIL_PATH = "/api/decision-history/";

const section = (page: Page, name: string | RegExp) => page.getByRole("region", { name });
const modelItem = (page: Page, name: string) => section(page, "Model Responses").getByRole("listitem", { name, exact: true });

/** Processing time as the specification words it. */
/** An element's text line by line, without the empty lines block layout adds. */
const textLines = (text: string) => text.split("\n").map((line) => line.trim()).filter(Boolean);

const processingText = (ms: number) => (ms < 1000 ? `${Math.round(ms)}ms` : `${(ms / 1000).toFixed(2)}s`);

async function openDecision(page: Page, auth: AuthResponse, id: string): Promise<void> {
  await app.openAs(page, auth, `/decision/${id}`);
}

async function imageAssetsOf(auth: AuthResponse, decisionId: string): Promise<ImageAsset[]> {
  const answer = await callApi(app.url, `/api/image-assets/decision/${decisionId}`, auth.tokens.access_token);
  return ImageAssetListResponseSchema.parse(answer.body).imageAssets;
}

describe.skipIf(browserUnavailable)("decision page: a decision made with images", () => {
  let auth: AuthResponse;
  let stored: StoredDecision;
  let assets: ImageAsset[];
  const images = [pngDataUrl(40, 20, 10), pngDataUrl(30, 30, 200)];

  beforeAll(async () => {
    if (browserUnavailable) return;
    auth = await app.signIn("detail");
    app.emulator.addRules([
      { match: { vendor: "openai" }, respond: { kind: "answer", category: "Yes", confidence: 0.9, rationale: "Sunny days favour a picnic." } },
      { match: { vendor: "gemini" }, respond: { kind: "answer", category: "Yes", confidence: 0.65, rationale: "Most signs point to yes." } },
      { match: { vendor: "anthropic" }, respond: { kind: "answer", category: "No", confidence: 0.3, rationale: "Rain is forecast." } },
    ]);
    const made = await app.decide(auth, { question: "Should we have a picnic on Saturday?", categories: ["Yes", "No", "Maybe"], images });
    stored = (await app.stack.store.decisions.findById(made.decision_id))!;
    assets = await imageAssetsOf(auth, stored.id);
  });

  it("shows every section at 375 and 1280 px", async () => {
    expect(stored.images).toHaveLength(2);
    expect(assets.map((a) => a.label)).toEqual(["image1", "image2"]);
    for (const viewport of [MOBILE, DESKTOP]) {
      const page = await app.newPage(viewport);
      await openDecision(page, auth, stored.id);
      await page.getByRole("heading", { level: 1, name: stored.question }).waitFor();
      const main = page.getByRole("main");
      expect(await main.getByTestId("final-decision").first().innerText()).toBe("Yes");
      const localTime = await page.evaluate((iso) => new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" }), stored.timestamp.toISOString());
      expect(await main.getByTestId("decision-time").innerText()).toBe(localTime);
      expect(await main.getByTestId("decision-age").innerText()).toMatch(/^\((Just now|\d+m ago)\)$/);
      expect(await main.getByTestId("processing-time").innerText()).toBe(`Processing time: ${processingText(stored.processing_time_ms)}`);

      expect(await section(page, "Available Categories").getByRole("listitem").allInnerTexts()).toEqual(["Yes", "No", "Maybe"]);

      const votes = section(page, "Vote Results").getByRole("listitem");
      expect(await votes.allInnerTexts()).toEqual(["Yes\n2 votes", "No\n1 vote", "Maybe\n0 votes"]);
      // Each bar is the category's share of total_votes.
      for (const [index, share] of [[0, 2 / 3], [1, 1 / 3], [2, 0]] as const) {
        const track = (await votes.nth(index).locator("[aria-hidden]").boundingBox())!;
        const bar = await votes.nth(index).locator("[data-share]").boundingBox();
        expect((bar?.width ?? 0) / track.width).toBeCloseTo(share, 1);
      }

      // One line per model, line breaks kept.
      const why = section(page, "Why this decision?").locator("p");
      expect(await why.innerText()).toBe(stored.context_explanation);
      const lines = (await why.innerText()).split("\n");
      for (const reason of ["Sunny days favour a picnic.", "Most signs point to yes.", "Rain is forecast."]) {
        expect(lines.filter((line) => line.includes(reason))).toHaveLength(1);
      }

      // Each image once, named, with its type and size: no second list of the same images.
      const imageSection = section(page, "Images (2)");
      for (const [index, name] of ["Image 1", "Image 2"].entries()) {
        const thumbnail = imageSection.getByRole("button", { name: `Open ${name}` }).locator("img");
        await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
        const item = imageSection.getByRole("listitem").nth(index);
        expect(textLines(await item.innerText())).toEqual([name, `image/png · ${(assets[index]!.file_size / 1024).toFixed(1)} KB`]);
      }
      expect(await imageSection.getByRole("listitem").count()).toBe(2);
      expect(await page.getByRole("region", { name: /^Image/ }).count()).toBe(1);
      expect(await main.getByText("image1", { exact: true }).count()).toBe(0);

      for (const [name, provider, confidence, colour, reason] of [
        [OPENAI, "openai", "90%", "green", "Sunny days favour a picnic."],
        [GEMINI, "gemini", "65%", "yellow", "Most signs point to yes."],
        [CLAUDE, "claude", "30%", "red", "Rain is forecast."],
      ] as const) {
        const item = modelItem(page, name);
        await item.getByText(stored.model_versions[provider]!, { exact: true }).waitFor();
        const badge = item.getByText(`${confidence} confidence`, { exact: true });
        expect(await paintedHue(badge)).toBe(colour);
        expect(await definition(item, "Response").innerText()).toBe(stored.individual_responses[provider]);
        expect(await definition(item, "Reason").innerText()).toBe(reason);
        const raw = stored.raw_responses[provider];
        expect((await terms(item)).includes("Raw Response")).toBe(Boolean(raw) && raw !== stored.individual_responses[provider]);
      }

      // Cost, tokens and latency, per model and in all, as the decision stored them.
      const usage = section(page, "Cost, tokens and latency");
      expect(await usage.getByTestId("total-cost").innerText()).toBe(formatCost(stored.cost_usd));
      expect(stored.cost_usd).toBeGreaterThan(0);
      for (const [name, provider] of [[OPENAI, "openai"], [GEMINI, "gemini"], [CLAUDE, "claude"]] as const) {
        const item = usage.getByRole("listitem", { name, exact: true });
        const tokens = stored.token_usage[provider]!;
        expect(await definition(item, "Latency").innerText()).toBe(formatProcessingTime(stored.model_latencies_ms[provider]!));
        expect(await definition(item, "Cost").innerText()).toBe(formatCost(stored.model_costs_usd[provider]!));
        expect(await definition(item, "Tokens").innerText()).toBe(`${tokens.input_tokens} in / ${tokens.output_tokens} out tokens`);
      }

      // The mode is listed once, in Decision Metadata.
      expect(await terms(section(page, "Ensemble"))).not.toContain("Mode");

      // What the other modes would have decided: the votes counted again, judge and gossip on demand.
      const compare = section(page, "What would the other modes have decided?");
      expect((await compare.getByRole("listitem").allInnerTexts()).map(textLines)).toEqual([
        ["Majority vote This decision", "3 votes counted again, no model asked", "Yes"],
        ["Weighted vote", "3 votes counted again, no model asked; scores Yes 2.00, No 1.00", "Yes"],
        ["Judge model", "Needs the models again: run it as a new decision", "Run judge model"],
        ["Gossip rounds", "Needs the models again: run it as a new decision", "Run gossip rounds"],
      ]);

      const metadata = section(page, "Decision Metadata");
      expect(await definition(metadata, "Decision ID").innerText()).toBe(stored.id);
      expect(await definition(metadata, "Total Votes").innerText()).toBe("3");
      expect(await definition(metadata, "Processing Time").innerText()).toBe(processingText(stored.processing_time_ms));
      expect(await definition(metadata, "Ensemble Mode").innerText()).toBe("majority_voting");
      expect(await definition(metadata, "Authenticated").innerText()).toBe("Yes");
      expect(await definition(metadata, "IP Address").innerText()).toBe(stored.user_ip);

      expect(await overflowingElements(page)).toEqual([]);
      if (shots) await page.screenshot({ path: `${shots}/detail-${viewport.width}.png`, fullPage: true });
    }
  });

  it("opens the image viewer: keys + = - R 0 Esc, the buttons, the wheel, dragging and download", async () => {
    const page = await app.newPage(DESKTOP);
    await openDecision(page, auth, stored.id);
    await section(page, "Images (2)").getByRole("button", { name: "Open Image 1" }).click();
    const dialog = page.getByRole("dialog", { name: "Image 1" });
    await dialog.waitFor();
    const asset = assets[0]!;
    await dialog.getByText(`1 of 2 · image/png · ${(asset.file_size / 1024).toFixed(1)} KB`).waitFor();
    // The viewer's dialog is named after the image it shows: its zoom is read wherever it moves.
    const zoom = page.getByRole("dialog").getByRole("status", { name: "Zoom" });
    const image = dialog.getByRole("img", { name: "Image 1" });
    const size = async () => {
      const box = (await image.boundingBox())!;
      return { width: box.width, height: box.height, x: box.x + box.width / 2, y: box.y + box.height / 2 };
    };
    const zoomIs = (text: string) => expect.poll(() => zoom.innerText()).toBe(text);
    await zoomIs("100%");
    await expect.poll(async () => (await size()).width).toBeGreaterThan(0);
    const natural = await size();

    await page.keyboard.press("+");
    await zoomIs("120%");
    await expect.poll(async () => (await size()).width).toBeCloseTo(natural.width * 1.2, 0);
    await page.keyboard.press("=");
    await zoomIs("144%");
    await page.keyboard.press("-");
    await zoomIs("120%");
    // R turns the picture a quarter: its box now lies the other way round.
    await page.keyboard.press("R");
    await expect.poll(async () => (await size()).width).toBeCloseTo(natural.height * 1.2, 0);
    expect((await size()).height).toBeCloseTo(natural.width * 1.2, 0);
    await page.keyboard.press("0");
    await zoomIs("100%");
    await expect.poll(async () => (await size()).width).toBeCloseTo(natural.width, 0);

    // The wheel: 1.1 up, 0.9 down.
    const stage = dialog.getByTestId("image-stage");
    const stageBox = (await stage.boundingBox())!;
    await page.mouse.move(stageBox.x + stageBox.width / 2, stageBox.y + stageBox.height / 2);
    await page.mouse.wheel(0, -100);
    await zoomIs("110%");
    await page.mouse.wheel(0, 100);
    await zoomIs("99%");
    await page.keyboard.press("0");
    await zoomIs("100%");

    // Dragging pans the picture by the distance dragged.
    const before = await size();
    await page.mouse.move(stageBox.x + 20, stageBox.y + 20);
    await page.mouse.down();
    await page.mouse.move(stageBox.x + 80, stageBox.y + 50, { steps: 6 });
    await page.mouse.up();
    await expect.poll(async () => (await size()).x - before.x).toBeCloseTo(60, 0);
    expect((await size()).y - before.y).toBeCloseTo(30, 0);

    // The buttons do what the keys do; the zoom stops at 5 (500%).
    await dialog.getByRole("button", { name: "Zoom in" }).click();
    await zoomIs("120%");
    await dialog.getByRole("button", { name: "Zoom out" }).click();
    await zoomIs("100%");
    await dialog.getByRole("button", { name: "Rotate 90 degrees" }).click();
    await expect.poll(async () => (await size()).width).toBeCloseTo(natural.height, 0);
    await dialog.getByRole("button", { name: "Reset view" }).click();
    await expect.poll(async () => (await size()).width).toBeCloseTo(natural.width, 0);
    for (let i = 0; i < 12; i++) await page.keyboard.press("+");
    await zoomIs("500%");
    expect(await dialog.getByRole("button", { name: "Zoom in" }).isDisabled()).toBe(true);
    for (let i = 0; i < 30; i++) await page.keyboard.press("-");
    await zoomIs("10%");

    // Download: the stored image, named after its label and type.
    const [download] = await Promise.all([page.waitForEvent("download"), dialog.getByRole("link", { name: "Download" }).click()]);
    expect(download.suggestedFilename()).toBe("image1.png");
    expect(await readFile((await download.path())!)).toEqual(pngBytes(40, 20, 10));

    // Next and previous: the arrow keys and the buttons, each image upright and at 100% again, no step past either end.
    await page.keyboard.press("ArrowRight");
    const second = page.getByRole("dialog", { name: "Image 2" });
    await second.getByText(`2 of 2 · image/png · ${(assets[1]!.file_size / 1024).toFixed(1)} KB`).waitFor();
    await zoomIs("100%");
    if (shots) await page.screenshot({ path: `${shots}/detail-viewer-1280.png` });
    expect(await second.getByRole("button", { name: "Next image" }).isDisabled()).toBe(true);
    await page.keyboard.press("ArrowRight");
    await second.getByText("2 of 2", { exact: false }).waitFor();
    await page.keyboard.press("ArrowLeft");
    await page.getByRole("dialog", { name: "Image 1" }).waitFor();
    expect(await page.getByRole("dialog", { name: "Image 1" }).getByRole("button", { name: "Previous image" }).isDisabled()).toBe(true);
    await page.getByRole("dialog", { name: "Image 1" }).getByRole("button", { name: "Next image" }).click();
    await second.waitFor();
    await second.getByRole("button", { name: "Previous image" }).click();
    await page.getByRole("dialog", { name: "Image 1" }).waitFor();

    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
  });

  it("runs the judge from Compare and lands on the new decision, linked both ways; shows the total cost on the dashboard card", async () => {
    const page = await app.newPage(DESKTOP);
    await openDecision(page, auth, stored.id);
    const compare = section(page, "What would the other modes have decided?");
    await compare.getByRole("button", { name: "Run judge model" }).click();
    await page.waitForURL((url) => url.pathname.startsWith("/decision/") && url.pathname !== `/decision/${stored.id}`);
    const rerunId = decodeURIComponent(new URL(page.url()).pathname.slice("/decision/".length));
    const rerun = (await app.stack.store.decisions.findById(rerunId))!;
    expect(rerun).toMatchObject({ rerun_of: stored.id, ensemble_mode: "judge", question: stored.question });

    // The new decision: its own answer, the judge's mode, and a link back to the first.
    await page.getByRole("heading", { level: 1, name: stored.question }).waitFor();
    expect(await definition(section(page, "Decision Metadata"), "Ensemble Mode").innerText()).toBe("judge");
    expect(await page.getByTestId("rerun-of").innerText()).toBe("Re-run of the first decision");
    expect(textLines(await section(page, "What would the other modes have decided?").getByRole("listitem", { name: "Judge model" }).innerText())).toEqual([
      "Judge model This decision",
      "How this decision was made",
      rerun.final_decision ?? "No decision",
    ]);
    await section(page, "Images (2)").waitFor();
    if (shots) await page.screenshot({ path: `${shots}/detail-rerun-1280.png`, fullPage: true });

    // Back on the first: the judge's outcome beside the recomputed ones, and the re-run listed.
    await page.getByTestId("rerun-of").getByRole("link", { name: "the first decision" }).click();
    await page.waitForURL((url) => url.pathname === `/decision/${stored.id}`);
    const judgeRow = section(page, "What would the other modes have decided?").getByRole("listitem", { name: "Judge model" });
    await judgeRow.getByRole("link", { name: "Open re-run" }).waitFor();
    expect(await judgeRow.getByTestId("final-decision").innerText()).toBe(rerun.final_decision ?? "No decision");
    const links = section(page, "Re-run").getByRole("list", { name: "Re-runs of this decision" }).getByRole("link");
    expect(await links.allInnerTexts()).toEqual([`Judge model: ${rerun.final_decision ?? "No decision"}`]);
    expect(await page.getByTestId("rerun-of").count()).toBe(0);

    // The dashboard's cards say what each decision cost in all.
    await page.goto("/dashboard");
    const card = page.getByRole("article", { name: stored.question }).first();
    await card.waitFor();
    const costs = await page.getByTestId("card-cost").allInnerTexts();
    expect(costs).toContain(`Total cost: ${formatCost(stored.cost_usd)}`);
    expect(costs).toContain(`Total cost: ${formatCost(rerun.cost_usd)}`);
    if (shots) await page.screenshot({ path: `${shots}/detail-dashboard-cost-1280.png` });
  });

  it("re-runs with another mode and panel from the form at 375 px", async () => {
    const page = await app.newPage(MOBILE);
    await openDecision(page, auth, stored.id);
    const form = page.getByRole("form", { name: "Re-run this decision" });
    await form.getByLabel("Mode").selectOption({ label: "Gossip rounds" });
    await form.getByRole("checkbox", { name: GEMINI }).uncheck();
    if (shots) await page.screenshot({ path: `${shots}/detail-rerun-form-375.png`, fullPage: true });
    expect(await overflowingElements(page)).toEqual([]);
    await form.getByRole("button", { name: "Re-run decision" }).click();
    await page.waitForURL((url) => url.pathname.startsWith("/decision/") && url.pathname !== `/decision/${stored.id}`);
    const rerunId = decodeURIComponent(new URL(page.url()).pathname.slice("/decision/".length));
    expect(await app.stack.store.decisions.findById(rerunId)).toMatchObject({ rerun_of: stored.id, ensemble_mode: "gossip", ensemble: { panel: ["openai", "claude"] } });
    await modelItem(page, OPENAI).waitFor();
    await expect.poll(() => section(page, "Model Responses").getByRole("listitem").count()).toBe(2);
    await page.getByTestId("rerun-of").waitFor();
    expect(await overflowingElements(page)).toEqual([]);
    if (shots) await page.screenshot({ path: `${shots}/detail-rerun-375.png`, fullPage: true });
  });

  it("keeps the viewer within a 375 px screen", async () => {
    const page = await app.newPage(MOBILE);
    await openDecision(page, auth, stored.id);
    await section(page, "Images (2)").getByRole("button", { name: "Open Image 2" }).click();
    const dialog = page.getByRole("dialog", { name: "Image 2" });
    await dialog.waitFor();
    const box = (await dialog.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(MOBILE.width);
    for (const name of ["Previous image", "Next image", "Zoom out", "Zoom in", "Rotate 90 degrees", "Reset view"]) {
      const button = (await dialog.getByRole("button", { name }).boundingBox())!;
      expect(button.x + button.width).toBeLessThanOrEqual(MOBILE.width);
    }
    if (shots) await page.screenshot({ path: `${shots}/detail-viewer-375.png` });
    expect(await overflowingElements(page)).toEqual([]);
  });
});

describe.skipIf(browserUnavailable)("decision page: seeded decisions", () => {
  it("colours confidence at the boundaries, shows Raw Response only when it differs, errors, unknown models and no IP", async () => {
    const auth = await app.signIn("seeded");
    const [decision] = await app.seed(auth, [
      {
        question: "Which option wins at the edges?",
        timestamp: new Date(Date.now() - 3 * 3_600_000),
        categories: ["A", "B"],
        final_decision: "A",
        vote_counts: { A: 2, B: 1 },
        total_votes: 3,
        context_explanation: "openai: A is simplest.\ngemini: A is cheapest.\ndeepSeek: B is fastest.",
        individual_responses: { openai: "A", gemini: "A", claude: null, deepSeek: "B" },
        raw_responses: { openai: "A", gemini: '{"category":"a"}', claude: null, deepSeek: "B" },
        confidence_scores: { openai: 0.8, gemini: 0.6, claude: null, deepSeek: 0.59 },
        rationales: { openai: "A is simplest.", gemini: "A is cheapest.", claude: null, deepSeek: "B is fastest." },
        model_versions: { openai: "gpt-4o-2024-08-06", gemini: "gemini-2.5-flash", claude: "claude-sonnet-4-6", deepSeek: "deepseek-chat" },
        error_details: { claude: "The model did not answer in time." },
        processing_time_ms: 850,
        user_ip: null,
      },
    ]);
    const page = await app.newPage(MOBILE);
    await openDecision(page, auth, decision!.id);
    await page.getByRole("heading", { level: 1, name: decision!.question }).waitFor();
    expect(await page.getByTestId("decision-age").innerText()).toBe("(3h ago)");
    expect(await page.getByTestId("processing-time").innerText()).toBe("Processing time: 850ms");

    expect(await paintedHue(modelItem(page, OPENAI).getByText("80% confidence"))).toBe("green");
    expect(await paintedHue(modelItem(page, GEMINI).getByText("60% confidence"))).toBe("yellow");
    // An unknown provider: its id split on capital letters.
    expect(await paintedHue(modelItem(page, "deep Seek").getByText("59% confidence"))).toBe("red");
    expect(await modelItem(page, CLAUDE).getByText(/confidence$/).count()).toBe(0);

    expect(await terms(modelItem(page, OPENAI))).toEqual(["Response", "Reason"]);
    expect(await terms(modelItem(page, GEMINI))).toEqual(["Response", "Raw Response", "Reason"]);
    expect(await definition(modelItem(page, GEMINI), "Raw Response").innerText()).toBe('{"category":"a"}');
    expect(await terms(modelItem(page, CLAUDE))).toEqual(["Response", "Error"]);
    expect(await definition(modelItem(page, CLAUDE), "Response").innerText()).toBe("No response");
    expect(await definition(modelItem(page, CLAUDE), "Error").innerText()).toBe("The model did not answer in time.");
    await modelItem(page, "deep Seek").getByText("deepseek-chat", { exact: true }).waitFor();

    const metadata = section(page, "Decision Metadata");
    expect(await terms(metadata)).toEqual(["Decision ID", "Total Votes", "Processing Time", "Ensemble Mode", "Authenticated"]);
    expect(await definition(metadata, "Processing Time").innerText()).toBe("850ms");
    // No images: no empty image cards.
    expect(await page.getByRole("region", { name: /^Image/ }).count()).toBe(0);
    expect(await overflowingElements(page)).toEqual([]);
  });

  it("shows 'Unknown time' and 'Unknown' when the decision has no valid time or processing time", async () => {
    const auth = await app.signIn("fallbacks");
    const [decision] = await app.seed(auth, [{ question: "A decision from an older version?", ensemble_mode: "majority_voting" }]);
    const page = await app.newPage(DESKTOP);
    // The store always keeps a time; decisions written by older versions may lack both (the contract allows it).
    await page.route(
      (url) => url.pathname === `${DETAIL_PATH}${decision!.id}`,
      async (route: Route) => {
        const response = await route.fetch();
        const body = (await response.json()) as { decision: DecisionHistoryItem };
        body.decision = { ...body.decision, timestamp: "not a time", processing_time_ms: null };
        await route.fulfill({ response, json: body });
      },
    );
    await openDecision(page, auth, decision!.id);
    await page.getByRole("heading", { level: 1, name: decision!.question }).waitFor();
    expect(await page.getByTestId("decision-time").innerText()).toBe("Unknown time");
    expect(await page.getByTestId("decision-age").innerText()).toBe("(Unknown time)");
    expect(await page.getByTestId("processing-time").innerText()).toBe("Processing time: Unknown");
    expect(await definition(section(page, "Decision Metadata"), "Processing Time").innerText()).toBe("Unknown");
  });

  it("waits for the models' names before showing the decision, and names them from their ids when the list fails", async () => {
    const auth = await app.signIn("names");
    const [decision] = await app.seed(auth, [{ question: "Whose names are these?" }]);
    const isProviders = (url: URL) => url.pathname === "/api/providers";
    const page = await app.newPage(DESKTOP);
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(isProviders, async (route: Route) => {
      await held;
      await route.continue();
    });
    const detail = page.waitForEvent("requestfinished", (request) => new URL(request.url()).pathname === `${DETAIL_PATH}${decision!.id}`);
    await openDecision(page, auth, decision!.id);
    await detail;
    // Two frames after the decision's body has arrived, anything it renders has been painted.
    await page.evaluate(() => new Promise((painted) => requestAnimationFrame(() => requestAnimationFrame(painted))));
    // The decision is there, the names are not: the page still shows its skeleton, never a raw id.
    expect(await page.getByRole("status", { name: "Loading decision" }).count()).toBe(1);
    expect(await page.getByRole("region", { name: "Model Responses" }).count()).toBe(0);
    release();
    await modelItem(page, OPENAI).waitFor();
    expect(await page.getByRole("status", { name: "Loading decision" }).count()).toBe(0);

    const failing = await app.newPage(DESKTOP);
    await failing.route(isProviders, (route: Route) => route.fulfill({ status: 500, json: { detail: "Internal Server Error" } }));
    await openDecision(failing, auth, decision!.id);
    await modelItem(failing, "openai").waitFor();
    await modelItem(failing, "claude").waitFor();
  });

  it("shows 'Failed to load image' for an image the browser cannot decode, in the list and in the viewer", async () => {
    const auth = await app.signIn("broken");
    const decisionId = crypto.randomUUID();
    const broken = await app.stack.store.imageAssets.create({
      userId: auth.user.id,
      decisionId,
      label: "image1",
      data: "data:image/png;base64,AAAAAAAAAAAAAAAA",
      createdAt: new Date(),
    });
    await app.seed(auth, [{ id: decisionId, question: "Is this picture readable?", images: [broken.id] }]);
    const page = await app.newPage(DESKTOP);
    await openDecision(page, auth, decisionId);
    const thumbnail = section(page, "Images (1)").getByRole("button", { name: "Open Image 1" });
    await thumbnail.getByText("Failed to load image").waitFor();
    await thumbnail.click();
    const dialog = page.getByRole("dialog", { name: "Image 1" });
    await dialog.getByText("Failed to load image").waitFor();
    expect(await dialog.getByRole("img", { name: "Image 1" }).count()).toBe(0);
    // A single image: nothing to step to.
    expect(await dialog.getByRole("button", { name: "Next image" }).count()).toBe(0);
  });
});

describe.skipIf(browserUnavailable)("decision page: errors", () => {
  it("answers another user's decision and an unknown id alike: 'Decision not found', with Back to Dashboard", async () => {
    const alice = await app.signIn("owner");
    const bob = await app.signIn("intruder");
    const [alices] = await app.seed(alice, [{ question: "Alice's private question?" }]);
    for (const id of [alices!.id, "no-such-decision"]) {
      const page = await app.newPage(MOBILE);
      await openDecision(page, bob, id);
      const alert = page.getByRole("alert").filter({ hasText: "Decision not found" });
      await alert.waitFor();
      expect(await page.getByText("Alice's private question?").count()).toBe(0);
      expect(await overflowingElements(page)).toEqual([]);
      await alert.getByRole("link", { name: "Back to Dashboard" }).click();
      await page.waitForURL((url) => url.pathname === "/dashboard");
    }
  });

  it("asks a signed-out visitor to sign in, and still asks for the images without a token", async () => {
    const page = await app.newPage(DESKTOP);
    const imageRequest = page.waitForRequest((r) => new URL(r.url()).pathname === "/api/image-assets/decision/some-id");
    await page.goto("/decision/some-id");
    const alert = page.getByRole("alert").filter({ hasText: "Authentication required to view decision details" });
    await alert.waitFor();
    expect(await (await imageRequest).headerValue("authorization")).toBeNull();
    await alert.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("dialog", { name: "Sign in to Smart Decision" }).waitFor();
  });

  it("shows 'Decision ID is required' without an id, and 'Failed to fetch decision details' when the server fails", async () => {
    const auth = await app.signIn("errors");
    const page = await app.newPage(DESKTOP);
    await openDecision(page, auth, "%20");
    await page.getByRole("alert").filter({ hasText: "Decision ID is required" }).waitFor();

    const failing = await app.newPage(DESKTOP);
    await failing.route(
      (url) => url.pathname.startsWith(DETAIL_PATH),
      (route) => route.fulfill({ status: 500, json: { detail: "Internal Server Error" } }),
    );
    await openDecision(failing, auth, "any-id");
    const alert = failing.getByRole("alert").filter({ hasText: "Failed to fetch decision details" });
    await alert.waitFor();
    await alert.getByRole("link", { name: "Back to Dashboard" }).waitFor();
  });
});
