import { randomUUID } from "node:crypto";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_PROVIDERS, type AuthResponse, type DecisionResponse } from "@sd/contracts";
import { emulatorBaseUrl } from "@sd/provider-emulator";
import { browserUnavailable, DESKTOP, MOBILE, overflowingElements } from "./support/browser-app";
import { paintedHue } from "./support/colours";
import { definition, terms } from "./support/definitions";
import { DECISION_PATH, useHistoryApp } from "./support/history-app";
import { addChoices, isPost, openPlayground, playground, PUBLIC_DECISION_PATH, type DecisionBody, type PlaygroundUi } from "./support/playground-page";

/**
 * The playground's ensemble controls (issue 10) in Chromium against the real stack: four models
 * (the playground's three and GPT-5, all answered by the provider emulator through their vendors'
 * SDKs), GPT-4o weighing 4 in weighted votes, GPT-5 the default judge. Each scenario scripts the
 * emulator per model (answers and latencies) and watches the rows live; then the decision page
 * shows how the ensemble decided.
 */

const OPENAI = "OpenAI GPT-4o";
const GEMINI = "Google Gemini 2.5 Flash";
// The label of the model Claude runs (the spec's Sonnet 3.5 is retired), as /api/providers gives it.
const CLAUDE = DEFAULT_PROVIDERS.claude.label;
const GPT5 = "OpenAI GPT-5";
/** What a later gossip round's prompt shows, and a judge's. */
const GOSSIP_PROMPT = "Other models' answers:";
const JUDGE_PROMPT = "Panel answers:";

const app = useHistoryApp((emulatorUrl) => ({
  PROVIDERS: "openai,gemini,claude,gpt5",
  GPT5_API_KEY: "test-key",
  GPT5_BASE_URL: emulatorBaseUrl(emulatorUrl, "openai"),
  // Per-model timeouts above the scripted latencies (the test environment's default is 2 s).
  OPENAI_TIMEOUT_MS: "15000",
  GEMINI_TIMEOUT_MS: "15000",
  CLAUDE_TIMEOUT_MS: "15000",
  GPT5_TIMEOUT_MS: "15000",
  OPENAI_WEIGHT: "4",
  VOTE_ATTEMPTS: "1",
}));

type Answer = { category: string; latency?: number; confidence?: number; rationale?: string };

/** One answer per model for questions containing `tag` (models named by what the emulator sees); the reason is "Picked <category>." unless given. */
function script(tag: string, answers: Partial<Record<"gpt-4o" | "gemini" | "claude" | "gpt-5", Answer>>): void {
  const match = { "gpt-4o": { model: "gpt-4o" }, gemini: { vendor: "gemini" as const }, claude: { vendor: "anthropic" as const }, "gpt-5": { model: "gpt-5" } };
  app.emulator.addRules(
    Object.entries(answers).map(([model, { category, latency = 0, confidence = 0.8, rationale = `Picked ${category}.` }]) => ({
      match: { ...match[model as keyof typeof match], question_contains: tag },
      latency_ms: latency,
      respond: { kind: "answer" as const, category, confidence, rationale },
    })),
  );
}

async function ask(ui: PlaygroundUi, page: Page, question: string, ...choices: string[]): Promise<DecisionBody> {
  await ui.question.fill(question);
  await addChoices(ui, ...choices);
  const posted = page.waitForRequest(isPost(PUBLIC_DECISION_PATH));
  await ui.submitButton.click();
  return (await posted).postDataJSON() as DecisionBody;
}

/** The document is exactly as wide as the screen: nothing scrolls sideways, nothing sticks out. */
async function expectFits(page: Page, width: number): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(width);
  expect(await overflowingElements(page)).toEqual([]);
}

const rowLabels = (ui: PlaygroundUi) => ui.rows.evaluateAll((rows) => rows.map((row) => row.querySelector("p")?.textContent ?? ""));

describe.skipIf(browserUnavailable)("playground: ensemble controls", () => {
  for (const viewport of [MOBILE, DESKTOP]) {
    it(`at ${viewport.width} px: a weighted vote of a 4-model panel shows 4 rows and the weighted decision`, async () => {
      const tag = `weighted-${randomUUID()}`;
      script(tag, {
        "gpt-4o": { category: "Yes", latency: 100, rationale: "The release is tested." },
        gemini: { category: "No", latency: 300 },
        claude: { category: "No", latency: 500 },
        "gpt-5": { category: "No", latency: 700 },
      });
      const page = await app.newPage(viewport);
      const ui = await openPlayground(page);
      // Collapsed by default: the summary says what a decision will do, the controls are hidden.
      expect(await ui.ensemble.toggle.textContent()).toContain("Majority vote · 3 models");
      expect(await ui.ensemble.mode("Weighted vote").isVisible()).toBe(false);
      expect(await rowLabels(ui)).toEqual([OPENAI, GEMINI, CLAUDE]);

      await ui.ensemble.toggle.click();
      await ui.ensemble.mode("Weighted vote").check();
      await ui.ensemble.model(GPT5).check();
      expect(await ui.ensemble.toggle.textContent()).toContain("Weighted vote · 4 models");
      // The rows follow the chosen panel, in panel order, before anything is asked.
      expect(await rowLabels(ui)).toEqual([OPENAI, GEMINI, CLAUDE, GPT5]);
      await expectFits(page, viewport.width);

      const body = await ask(ui, page, `Ship on Friday? ${tag}`, "Yes", "No");
      expect(body).toEqual({
        question: `Ship on Friday? ${tag}`,
        categories: ["Yes", "No"],
        request_id: expect.any(String),
        ensemble_mode: "weighted_voting",
        models: ["openai", "gemini", "claude", "gpt5"],
      });
      await ui.rowNamed(OPENAI).getByText("Yes", { exact: true }).waitFor();
      for (const label of [GEMINI, CLAUDE, GPT5]) await ui.rowNamed(label).getByText("No", { exact: true }).waitFor();
      // Three models said No, but GPT-4o weighs 4: Yes, which a plain majority would not give.
      await ui.toast("Decision Complete!").getByText("Final decision: Yes").waitFor();
      expect(await ui.rows.count()).toBe(4);
      expect(await ui.finalCard.getByRole("list", { name: "Why this decision?" }).textContent()).toContain("4.00");
      await expectFits(page, viewport.width);
      await page.screenshot({ path: `/tmp/playground-weighted-${viewport.width}.png`, fullPage: true });
    });

    it(`at ${viewport.width} px: gossip shows each round as it arrives, with the earlier ones under each row`, async () => {
      const tag = `gossip-${randomUUID()}`;
      // Later rounds (their prompt shows the others' answers) all answer No, slowly enough to watch.
      app.emulator.addRules({ match: { question_contains: GOSSIP_PROMPT }, latency_ms: 1500, respond: { kind: "answer", category: "No", confidence: 0.7, rationale: "The others convinced me." } });
      script(tag, { "gpt-4o": { category: "Yes", latency: 100, confidence: 0.9, rationale: "Tested." }, gemini: { category: "No", latency: 1000 }, claude: { category: "No", latency: 1000 } });
      const page = await app.newPage(viewport);
      const ui = await openPlayground(page);
      await ui.ensemble.toggle.click();
      await ui.ensemble.mode("Gossip rounds").check();
      expect(await ui.ensemble.rounds.inputValue()).toBe("3");
      await ui.ensemble.rounds.selectOption("2");
      expect(await ui.ensemble.earlyQuorum.count()).toBe(0); // gossip needs every answer

      const body = await ask(ui, page, `Tabs or spaces? ${tag}`, "Yes", "No");
      expect(body).toMatchObject({ ensemble_mode: "gossip", max_rounds: 2 });
      expect(body.models).toBeUndefined();
      const openai = ui.rowNamed(OPENAI);
      // Round 1's answer arrives, tagged round 1 (the others are still answering round 1)...
      await openai.and(page.locator('[data-round="1"][data-status="success"]')).waitFor();
      // ...then round 2 is asked: the row moves on and keeps round 1 under it.
      await openai.and(page.locator('[data-round="2"][data-status="pending"]')).waitFor();
      await page.screenshot({ path: `/tmp/playground-gossip-${viewport.width}.png`, fullPage: true });
      const history = page.getByRole("list", { name: `Earlier rounds of ${OPENAI}` });
      expect(await history.textContent()).toBe("Round 1: Yes (90%) · Tested.");
      await openai.getByText("No", { exact: true }).waitFor();
      await openai.getByText("The others convinced me.").waitFor();
      expect(await openai.getByText("Round 2", { exact: true }).isVisible()).toBe(true);
      await ui.toast("Decision Complete!").getByText("Final decision: No").waitFor();
      for (const label of [GEMINI, CLAUDE]) expect(await ui.rowNamed(label).getAttribute("data-round")).toBe("2");
      expect(await ui.finalCard.getByRole("list", { name: "Vote results" }).getByRole("listitem").allInnerTexts()).toEqual(["No\n3 votes", "Yes\n0 votes"]);
      await expectFits(page, viewport.width);
    });

    it(`at ${viewport.width} px: judge mode adds the judge's row, which waits for the panel, then gives its verdict`, async () => {
      const tag = `judge-${randomUUID()}`;
      const verdict = "GPT-4o's reason is the strongest.";
      app.emulator.addRules({ match: { model: "gpt-5", question_contains: JUDGE_PROMPT }, latency_ms: 1200, respond: { kind: "answer", category: "Yes", rationale: verdict } });
      script(tag, { "gpt-4o": { category: "Yes", latency: 800 }, gemini: { category: "No", latency: 800 }, claude: { category: "No", latency: 800 } });
      const page = await app.newPage(viewport);
      const ui = await openPlayground(page);
      await ui.ensemble.toggle.click();
      await ui.ensemble.mode("Judge model").check();
      // The default judge is the server's.
      expect(await ui.ensemble.judge.locator("option:checked").textContent()).toBe(GPT5);
      expect(await rowLabels(ui)).toEqual([OPENAI, GEMINI, CLAUDE, `Judge: ${GPT5}`]);

      const body = await ask(ui, page, `Which database? ${tag}`, "Yes", "No");
      expect(body).toMatchObject({ ensemble_mode: "judge" });
      expect(body.judge_model).toBeUndefined();
      const judge = ui.rowNamed(`Judge: ${GPT5}`);
      await judge.getByText("Waiting for the panel's answers").waitFor();
      await judge.getByText("Processing...").waitFor();
      expect(await ui.rowNamed(CLAUDE).getAttribute("data-status")).toBe("success");
      await judge.getByText("Yes", { exact: true }).waitFor();
      await judge.getByText(verdict).waitFor();
      // The panel's majority said No: the judge decided.
      await ui.toast("Decision Complete!").getByText("Final decision: Yes").waitFor();
      expect(await judge.getAttribute("data-kind")).toBe("judge");
      await expectFits(page, viewport.width);
    });

    it(`at ${viewport.width} px: early quorum shows the slow model's vote as skipped, muted, never failed`, async () => {
      const tag = `quorum-${randomUUID()}`;
      // Claude would answer after 10 s: two Yes of three already decide it.
      script(tag, { "gpt-4o": { category: "Yes", latency: 100 }, gemini: { category: "Yes", latency: 300 }, claude: { category: "No", latency: 10_000 } });
      const page = await app.newPage(viewport);
      const ui = await openPlayground(page);
      await ui.ensemble.toggle.click();
      await ui.ensemble.earlyQuorum.check();
      expect(await ui.ensemble.toggle.textContent()).toContain("Majority vote · 3 models · early quorum");

      const started = Date.now();
      const body = await ask(ui, page, `Merge the branch? ${tag}`, "Yes", "No");
      expect(body).toMatchObject({ early_quorum: true });
      expect(body.ensemble_mode).toBeUndefined();
      const claude = ui.rowNamed(CLAUDE);
      await claude.getByText("Skipped (early quorum)").waitFor();
      await ui.toast("Decision Complete!").getByText("Final decision: Yes").waitFor();
      expect(Date.now() - started).toBeLessThan(8000);
      expect(await claude.getAttribute("data-status")).toBe("skipped");
      expect(await claude.textContent()).not.toContain("Failed");
      expect(await paintedHue(claude.getByText("Skipped (early quorum)"), "color")).not.toBe("red");
      expect(Number(await claude.evaluate((row) => getComputedStyle(row).opacity))).toBeLessThan(1);
      await expectFits(page, viewport.width);
    });
  }

  it("works from the keyboard, keeps at least one model, and fits 375 px with every control open", async () => {
    const page = await app.newPage(MOBILE);
    const ui = await openPlayground(page);
    await ui.question.fill("Keyboard only?");
    await addChoices(ui, "Yes", "No");
    await ui.ensemble.toggle.focus();
    await page.keyboard.press("Enter");
    await ui.ensemble.mode("Majority vote").waitFor();
    await page.keyboard.press("Tab"); // the checked mode
    expect(await ui.ensemble.mode("Majority vote").evaluate((radio) => radio === document.activeElement)).toBe(true);
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("ArrowDown");
    expect(await ui.ensemble.mode("Judge model").isChecked()).toBe(true);
    await ui.ensemble.judge.waitFor();
    // Tab reaches the panel's first checkbox; Space unchecks it.
    await page.keyboard.press("Tab");
    expect(await ui.ensemble.model(OPENAI).evaluate((box) => box === document.activeElement)).toBe(true);
    await page.keyboard.press("Space");
    expect(await ui.ensemble.model(OPENAI).isChecked()).toBe(false);
    await ui.ensemble.model(GPT5).check();
    await expectFits(page, MOBILE.width);
    await page.screenshot({ path: "/tmp/playground-ensemble-controls-375.png", fullPage: true });

    // Without any model the button says why it cannot decide.
    for (const label of [GEMINI, CLAUDE, GPT5]) await ui.ensemble.model(label).uncheck();
    expect(await ui.submitButton.isDisabled()).toBe(true);
    const why = await ui.submitButton.getAttribute("aria-describedby");
    expect(await page.locator(`[id="${why}"]`).textContent()).toBe("Choose at least one model.");
    await ui.ensemble.model(CLAUDE).check();
    expect(await ui.submitButton.isEnabled()).toBe(true);
    expect(await rowLabels(ui)).toEqual([CLAUDE, `Judge: ${GPT5}`]);

    // Closing the section keeps the choice, and its summary says it.
    await ui.ensemble.toggle.click();
    expect(await ui.ensemble.judge.isVisible()).toBe(false);
    expect(await ui.ensemble.toggle.textContent()).toContain("Judge model · 1 model");
  });
});

describe.skipIf(browserUnavailable)("decision page: how the ensemble decided", () => {
  let auth: AuthResponse;
  const made: Record<"weighted" | "gossip" | "judge" | "judgeFails", DecisionResponse | undefined> = {
    weighted: undefined,
    gossip: undefined,
    judge: undefined,
    judgeFails: undefined,
  };
  const decision = (name: keyof typeof made): DecisionResponse => {
    const made_ = made[name];
    if (!made_) throw new Error(`the ${name} decision is made in beforeAll`);
    return made_;
  };

  beforeAll(async () => {
    if (browserUnavailable) return;
    auth = await app.signIn("ensemble");
    // The emulator is reset before each test, so these rules serve beforeAll only.
    const tags = { weighted: `w-${randomUUID()}`, gossip: `g-${randomUUID()}`, judge: `j-${randomUUID()}`, judgeFails: `f-${randomUUID()}` };
    // Gemini No (weight 1), GPT-5 Yes (1), then GPT-4o Yes (4): Yes 5 to No 1 with only Claude's 1 to come.
    script(tags.weighted, {
      gemini: { category: "No", latency: 100 },
      "gpt-5": { category: "Yes", latency: 400 },
      "gpt-4o": { category: "Yes", latency: 800 },
      claude: { category: "No", latency: 10_000 },
    });
    app.emulator.addRules({ match: { question_contains: GOSSIP_PROMPT }, respond: { kind: "answer", category: "No", rationale: "The others convinced me." } });
    script(tags.gossip, { "gpt-4o": { category: "Yes", rationale: "Tested." }, gemini: { category: "No" }, claude: { category: "No" } });
    // GPT-5 only judges here: its rule per question says how.
    app.emulator.addRules([
      { match: { model: "gpt-5", question_contains: tags.judge }, respond: { kind: "answer", category: "Yes", rationale: "The tests pass." } },
      { match: { model: "gpt-5", question_contains: tags.judgeFails }, respond: { kind: "error", status: 500 } },
    ]);
    for (const tag of [tags.judge, tags.judgeFails]) script(tag, { "gpt-4o": { category: "Yes" }, gemini: { category: "No" }, claude: { category: "No" } });
    const categories = ["Yes", "No"];
    [made.weighted, made.gossip, made.judge, made.judgeFails] = await Promise.all([
      app.decide(auth, { question: `Weighted ${tags.weighted}`, categories, ensemble_mode: "weighted_voting", models: ["openai", "gemini", "claude", "gpt5"], early_quorum: true }),
      app.decide(auth, { question: `Gossip ${tags.gossip}`, categories, ensemble_mode: "gossip" }),
      app.decide(auth, { question: `Judge ${tags.judge}`, categories, ensemble_mode: "judge" }),
      app.decide(auth, { question: `Judge fails ${tags.judgeFails}`, categories, ensemble_mode: "judge" }),
    ]);
  });

  const ensembleSection = (page: Page) => page.getByRole("region", { name: "Ensemble" });
  const modeOf = (page: Page) => definition(page.getByRole("region", { name: "Decision Metadata" }), "Ensemble Mode").textContent();
  /** A page at `viewport` whose waits end well within the test's own timeout, so a failure names its locator. */
  const newPage = async (viewport: { width: number; height: number }) => {
    const page = await app.newPage(viewport);
    page.setDefaultTimeout(10_000);
    return page;
  };

  it("shows a weighted vote's panel, weights, and what early quorum skipped and saved", async () => {
    const page = await newPage(DESKTOP);
    await app.openAs(page, auth, `/decision/${decision("weighted").decision_id}`);
    const section = ensembleSection(page);
    await section.waitFor();
    // The mode is listed once, in Decision Metadata (issue 30), not again in the Ensemble section.
    expect(await modeOf(page)).toBe("weighted_voting");
    expect(await terms(section)).not.toContain("Mode");
    expect(await definition(section, "Panel").textContent()).toBe(`${OPENAI}, ${GEMINI}, ${CLAUDE}, ${GPT5}`);
    // The weight of each vote counted: Claude's was skipped.
    expect(await section.getByRole("group", { name: "Weights" }).getByRole("listitem").allInnerTexts()).toEqual([
      `${OPENAI}\n4.00`,
      `${GEMINI}\n1.00`,
      `${GPT5}\n1.00`,
    ]);
    const quorum = section.getByRole("group", { name: "Early quorum" });
    expect(await definition(quorum, "Skipped").textContent()).toBe(CLAUDE);
    expect(await definition(quorum, "Calls saved").textContent()).toBe("1");
    expect(await section.getByRole("group", { name: "Judge" }).count()).toBe(0);
  });

  it("shows every gossip round's answers", async () => {
    const page = await newPage(DESKTOP);
    await app.openAs(page, auth, `/decision/${decision("gossip").decision_id}`);
    const rounds = ensembleSection(page).getByRole("group", { name: "Rounds" });
    await rounds.waitFor();
    expect(await modeOf(page)).toBe("gossip");
    const round = (n: number) => rounds.getByRole("listitem", { name: `Round ${n}` }).getByRole("listitem");
    expect(await round(1).allInnerTexts()).toEqual([`${OPENAI}: Yes · Tested.`, `${GEMINI}: No · Picked No.`, `${CLAUDE}: No · Picked No.`]);
    expect(await round(2).allInnerTexts()).toEqual([
      `${OPENAI}: No · The others convinced me.`,
      `${GEMINI}: No · The others convinced me.`,
      `${CLAUDE}: No · The others convinced me.`,
    ]);
    expect(await ensembleSection(page).getByRole("group", { name: "Weights" }).count()).toBe(0);
  });

  it("at 375 px, shows the judge's verdict and reason, or that it failed and the majority vote decided", async () => {
    const page = await newPage(MOBILE);
    await app.openAs(page, auth, `/decision/${decision("judge").decision_id}`);
    const judge = ensembleSection(page).getByRole("group", { name: "Judge" });
    await judge.waitFor();
    expect(await judge.textContent()).toBe(`Judge${GPT5} chose Yes: The tests pass.`);
    expect(decision("judge").final_decision).toBe("Yes");
    await expectFits(page, MOBILE.width);

    await app.openAs(page, auth, `/decision/${decision("judgeFails").decision_id}`);
    await judge.getByText("the majority vote decided").waitFor();
    expect(await judge.textContent()).toMatch(new RegExp(`^Judge${GPT5} failed \\([\\s\\S]+\\): the majority vote decided\\.$`));
    expect(decision("judgeFails").final_decision).toBe("No");
    await expectFits(page, MOBILE.width);
    await page.screenshot({ path: "/tmp/decision-ensemble-375.png", fullPage: true });
  });
});

describe.skipIf(browserUnavailable)("playground: panel presets", () => {
  const PRESET = "Weighted trio";

  for (const viewport of [MOBILE, DESKTOP]) {
    it(`at ${viewport.width} px: a saved preset survives a reload, picking it sets the panel, and the stored decision used it; /settings renames and deletes it`, async () => {
      const tag = `preset-${randomUUID()}`;
      script(tag, { "gpt-4o": { category: "Yes" }, claude: { category: "No" }, "gpt-5": { category: "No" } });
      const auth = await app.signIn("presets");
      const page = await app.newPage(viewport);
      await app.openAs(page, auth, "/playground");
      const ui = playground(page);
      await ui.question.waitFor();

      // The settings to save: a weighted vote of GPT-4o, Claude and GPT-5 (Gemini off).
      await ui.ensemble.toggle.click();
      const preset = page.getByRole("combobox", { name: "Preset" });
      await preset.waitFor();
      await ui.ensemble.mode("Weighted vote").check();
      await ui.ensemble.model(GEMINI).uncheck();
      await ui.ensemble.model(GPT5).check();
      await page.getByRole("button", { name: "Save as preset" }).click();
      await page.getByLabel("Preset name").fill(PRESET);
      // Enter saves the preset: it must not submit the decision form around it.
      await page.getByLabel("Preset name").press("Enter");
      await ui.toast("Preset saved").waitFor();
      expect(await preset.locator("option:checked").textContent()).toBe(PRESET);

      // A new visit starts from the defaults; the preset is still there to pick.
      await page.reload();
      await ui.question.waitFor();
      expect(await ui.ensemble.toggle.textContent()).toContain("Majority vote · 3 models");
      expect(await ui.ensemble.toggle.textContent()).not.toContain(PRESET);
      await ui.ensemble.toggle.click();
      await preset.locator("option", { hasText: PRESET }).waitFor({ state: "attached" });
      await preset.selectOption({ label: PRESET });
      // The summary names the preset, so it shows even with the controls closed.
      expect(await ui.ensemble.toggle.textContent()).toContain(`${PRESET} · Weighted vote · 3 models`);
      expect(await ui.ensemble.model(GEMINI).isChecked()).toBe(false);
      expect(await rowLabels(ui)).toEqual([OPENAI, CLAUDE, GPT5]);
      await expectFits(page, viewport.width);
      await page.screenshot({ path: `/tmp/shots/presets-playground-${viewport.width}.png`, fullPage: true });

      // Changing anything turns the picker back to custom settings.
      await ui.ensemble.model(GEMINI).check();
      expect(await preset.locator("option:checked").textContent()).toBe("Custom settings");
      await preset.selectOption({ label: PRESET });

      await ui.question.fill(`Ship it? ${tag}`);
      await addChoices(ui, "Yes", "No");
      const answered = page.waitForResponse((response) => response.request().method() === "POST" && new URL(response.url()).pathname === DECISION_PATH);
      await ui.submitButton.click();
      const { decision_id } = (await (await answered).json()) as DecisionResponse;
      // GPT-4o weighs 4: Yes against two No's, which only the preset's weighted vote gives.
      await ui.toast("Decision Complete!").getByText("Final decision: Yes").waitFor();
      const stored = await app.stack.store.decisions.findById(decision_id);
      expect([stored?.ensemble_mode, stored?.ensemble?.panel]).toEqual(["weighted_voting", ["openai", "claude", "gpt5"]]);

      // /settings lists it with its settings, renames it and deletes it.
      await page.goto("/settings");
      const list = page.getByRole("list", { name: "Your presets" });
      await list.getByText(PRESET, { exact: true }).waitFor();
      expect(await list.textContent()).toContain(`Weighted vote · ${OPENAI}, ${CLAUDE}, ${GPT5}`);
      await page.getByRole("button", { name: `Rename ${PRESET}` }).click();
      await page.getByLabel(`New name for ${PRESET}`).fill("Trio");
      await page.getByRole("button", { name: "Save name" }).click();
      await list.getByText("Trio", { exact: true }).waitFor();
      await expectFits(page, viewport.width);
      await page.screenshot({ path: `/tmp/shots/presets-settings-${viewport.width}.png`, fullPage: true });
      await page.getByRole("button", { name: "Delete Trio" }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Delete", exact: true }).click();
      await page.getByText("No presets yet.", { exact: false }).waitFor();
      expect(await app.stack.store.presets.listForUser(auth.user.id)).toEqual([]);
    });
  }
});
