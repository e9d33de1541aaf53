import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { Page } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { browserUnavailable, useBrowserApp } from "./support/browser-app";

const app = useBrowserApp();
const run = promisify(execFile);

/** The Python that runs the Python samples. */
const PYTHON = process.env.PYTHON ?? "python3";
const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const TABS = ["Python", "JavaScript", "TypeScript", "REST API"] as const;

/** A scratch directory whose node_modules is the repository's, so samples can import socket.io-client. */
const scratch = mkdtempSync(join(tmpdir(), "sd-samples-"));
symlinkSync(join(REPO, "node_modules"), join(scratch, "node_modules"), "dir");
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const toast = (page: Page, text: string) => page.locator("[data-sonner-toast]").filter({ hasText: text });

/** The code blocks of the open tab, each with its title. */
async function samplesOf(page: Page, tab: string) {
  await page.getByRole("tab", { name: tab }).click();
  const panel = page.getByRole("tabpanel", { name: tab });
  await panel.waitFor();
  return panel.locator("section[data-sample]");
}

/** Copies one sample with its button and returns what the clipboard then holds. */
async function copyFromPage(page: Page, tab: string, title: string): Promise<string> {
  const samples = await samplesOf(page, tab);
  const sample = samples.filter({ has: page.getByRole("heading", { name: title, exact: true }) });
  await sample.getByRole("button", { name: /^Copy code/ }).click();
  await sample.getByRole("button", { name: /^Copied/ }).waitFor();
  return page.evaluate(() => navigator.clipboard.readText());
}

async function python(module: string): Promise<boolean> {
  try {
    await run(PYTHON, ["-c", `import ${module}`]);
    return true;
  } catch {
    return false;
  }
}

const decisionOutput = /Final decision: (Yes|No|Wait until Monday)/;

/** Suggestions answer this first (the samples print "Ship behind a feature flag (70%)"); votes stay as they are. */
const SUGGESTION = { category: "Ship behind a feature flag", confidence: 0.7 };
const scriptSuggestions = () =>
  app.emulator.addRules({ match: { question_contains: "Existing choices:" }, respond: { kind: "answer", ...SUGGESTION } });
const suggestionOutput = `${SUGGESTION.category} (70%)`;

describe.skipIf(browserUnavailable)("developers page", () => {
  it("has the tabs Python, JavaScript, TypeScript and REST API, each with code samples for this site's origin", async () => {
    const page = await app.newPage();
    await page.goto("/developers");
    await page.getByRole("heading", { level: 1, name: "Developer Guide" }).waitFor();
    expect(await page.getByRole("tab").allTextContents()).toEqual([...TABS]);
    expect(await page.getByRole("tab", { name: "Python" }).getAttribute("aria-selected")).toBe("true");
    for (const tab of TABS) {
      const samples = await samplesOf(page, tab);
      expect(await samples.count(), tab).toBeGreaterThan(0);
      const code = (await samples.locator("pre").allTextContents()).join("\n");
      expect(code, tab).toContain("/api/ensembled-llm-categorical-decision-public");
      if (tab !== "REST API") expect(code, tab).toContain(`"${app.url}"`);
    }
  });

  it("switches tabs with the arrow keys", async () => {
    const page = await app.newPage();
    await page.goto("/developers");
    await page.getByRole("tab", { name: "Python" }).focus();
    await page.keyboard.press("ArrowRight");
    await page.getByRole("tabpanel", { name: "JavaScript" }).waitFor();
    expect(await page.getByRole("tab", { name: "JavaScript" }).evaluate((el) => el === document.activeElement)).toBe(true);
  });

  it("copies a sample: 'Copied!' toast, the clipboard holds the sample, the icon resets after 2 seconds", async () => {
    const page = await app.newPage();
    await page.goto("/developers");
    const samples = await samplesOf(page, "Python");
    const first = samples.first();
    const shown = await first.locator("pre").textContent();
    const started = Date.now();
    await first.getByRole("button", { name: /^Copy code/ }).click();
    await toast(page, "Copied!").waitFor();
    await first.getByRole("button", { name: /^Copied/ }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shown);
    await first.getByRole("button", { name: /^Copy code/ }).waitFor();
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
  });

  it("shows 'Coming Soon' cards for Go, Rust, Java, C#, PHP and Ruby", async () => {
    const page = await app.newPage();
    await page.goto("/developers");
    const sdks = page.getByRole("region", { name: "More SDKs" });
    for (const language of ["Go", "Rust", "Java", "C#", "PHP", "Ruby"]) {
      await sdks.getByRole("listitem").filter({ has: page.getByRole("heading", { name: language, exact: true }) }).getByText("Coming Soon").waitFor();
    }
  });
});

/** The copied samples, run as a developer would run them, against the product. */
describe.skipIf(browserUnavailable)("the developers samples work against this API", () => {
  it("REST API: the curl samples answer a decision and suggestions", async () => {
    const page = await app.newPage();
    await page.goto("/developers");
    const decision = JSON.parse((await run("sh", ["-c", await copyFromPage(page, "REST API", "Make a decision")])).stdout) as Record<string, unknown>;
    expect(Object.keys(decision).sort()).toEqual(
      ["context_explanation", "decision_id", "final_decision", "individual_responses", "question", "total_votes", "vote_counts"].sort(),
    );
    expect(decision.total_votes).toBe(3);

    const command = await copyFromPage(page, "REST API", "Suggest answer categories");
    scriptSuggestions();
    const suggestions = JSON.parse((await run("sh", ["-c", command])).stdout) as { suggestions: unknown[] };
    expect(suggestions.suggestions).toContainEqual(SUGGESTION);
  });

  it("JavaScript: the decision, suggestion and live samples run in Node", async () => {
    scriptSuggestions();
    const page = await app.newPage();
    await page.goto("/developers");
    for (const [title, expected] of [
      ["Make a decision", decisionOutput],
      ["Suggest answer categories", suggestionOutput],
      ["Watch the votes arrive", decisionOutput],
    ] as const) {
      const file = join(scratch, `${title.replaceAll(" ", "-")}.mjs`);
      writeFileSync(file, await copyFromPage(page, "JavaScript", title));
      const { stdout } = await run(process.execPath, [file], { cwd: scratch });
      expect(stdout, title).toMatch(expected);
      if (title === "Watch the votes arrive") {
        for (const provider of ["openai", "gemini", "claude"]) {
          expect(stdout, provider).toContain(`${provider}: pending`);
          expect(stdout, provider).toContain(`${provider}: success`);
        }
      }
    }
  });

  it("TypeScript: the typed client runs", async () => {
    scriptSuggestions();
    const page = await app.newPage();
    await page.goto("/developers");
    const file = join(scratch, "client.mts");
    writeFileSync(file, await copyFromPage(page, "TypeScript", "A typed client"));
    const { stdout } = await run(join(REPO, "node_modules/.bin/tsx"), [file], { cwd: scratch });
    expect(stdout).toMatch(decisionOutput);
    expect(stdout).toContain("openai: success");
    expect(stdout).toContain(suggestionOutput);
  });

  it("Python: the samples run where requests (and python-socketio for live votes) are installed", async (context) => {
    if (!(await python("requests"))) context.skip(`${PYTHON} with requests is not installed (set PYTHON to another interpreter)`);
    const page = await app.newPage();
    await page.goto("/developers");
    const decision = await run(PYTHON, ["-c", await copyFromPage(page, "Python", "Make a decision")]);
    expect(decision.stdout).toMatch(decisionOutput);
    const script = await copyFromPage(page, "Python", "Suggest answer categories");
    scriptSuggestions();
    expect((await run(PYTHON, ["-c", script])).stdout).toContain(suggestionOutput);
    if (!(await python("socketio"))) {
      console.warn(`Not running the Python live-votes sample: ${PYTHON} has no python-socketio (set PYTHON to an interpreter with it)`);
      return;
    }
    const live = await run(PYTHON, ["-c", await copyFromPage(page, "Python", "Watch the votes arrive")]);
    expect(live.stdout).toMatch(decisionOutput);
    expect(live.stdout).toContain("openai: success");
  });
});
