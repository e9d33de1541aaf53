import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiKeySchema, V1DecisionStatusSchema, V1EnsembleResponseSchema } from "@sd/contracts";
import { callApi } from "@sd/testing";
import { SDK_INSTALL } from "../../web/src/site/code-samples";
import { browserUnavailable } from "./support/browser-app";
import { useHistoryApp } from "./support/history-app";

const app = useHistoryApp();
const run = promisify(execFile);

/** The Python that runs the Python samples. */
const PYTHON = process.env.PYTHON ?? "python3";
const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const TABS = ["Python", "JavaScript", "TypeScript", "REST API", "OpenAI-compatible", "MCP"] as const;

/** The SDK as `npm install @smart-decision/sdk` gives it: the built package (the root test script builds it). */
const SDK_BUILD = join(REPO, "libs/sdk/dist/index.js");

/** A scratch directory whose node_modules is the repository's, so samples can import @smart-decision/sdk and socket.io-client. */
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
const historyOutput = /(\d+) decisions in all; the latest:/;

/**
 * An API key of a new account, made as a developer makes one (signed in, POST /api/api-keys): every
 * sample reads it from SD_API_KEY, as the page tells developers to keep it.
 */
let apiKey: Promise<string> | undefined;
function sampleKey(): Promise<string> {
  apiKey ??= (async () => {
    const auth = await app.signIn("developer");
    const created = await callApi(app.url, "/api/api-keys", auth.tokens.access_token, { body: { name: "Developer guide samples" } });
    if (created.status !== 201) throw new Error(`creating the API key answered ${created.status}: ${created.text}`);
    return ApiKeySchema.parse(created.body).keyvalue!;
  })();
  return apiKey;
}
const withKey = async () => ({ ...process.env, SD_API_KEY: await sampleKey() });

/** Suggestions answer this first (the samples print "Ship behind a feature flag (70%)"); votes stay as they are. */
const SUGGESTION = { category: "Ship behind a feature flag", confidence: 0.7 };
const scriptSuggestions = () =>
  app.emulator.addRules({ match: { question_contains: "Existing choices:" }, respond: { kind: "answer", ...SUGGESTION } });
const suggestionOutput = `${SUGGESTION.category} (70%)`;

describe.skipIf(browserUnavailable)("developers page", () => {
  it("has the tabs Python, JavaScript, TypeScript, REST API, OpenAI-compatible and MCP, each with code samples for this site's origin", async () => {
    const page = await app.newPage();
    await page.goto("/developers");
    await page.getByRole("heading", { level: 1, name: "Developer Guide" }).waitFor();
    expect(await page.getByRole("tab").allTextContents()).toEqual([...TABS]);
    expect(await page.getByRole("tab", { name: "Python" }).getAttribute("aria-selected")).toBe("true");
    for (const tab of TABS) {
      const samples = await samplesOf(page, tab);
      expect(await samples.count(), tab).toBeGreaterThan(0);
      const code = (await samples.locator("pre").allTextContents()).join("\n");
      if (tab === "OpenAI-compatible" || tab === "MCP") {
        expect(code, tab).toContain(tab === "MCP" ? `${app.url}/mcp` : `${app.url}/v1`);
      } else if (tab === "Python" || tab === "REST API") {
        expect(code, tab).toContain(app.url);
        expect(code, tab).toContain("/v1/ensemble");
        expect(code, tab).toContain("SD-API-KEY");
      } else {
        expect(code, tab).toContain(SDK_INSTALL);
        expect(code, tab).toContain(`baseUrl: "${app.url}"`);
      }
    }
  });

  it("links the interactive API reference at /docs, which renders the OpenAPI document", async () => {
    const page = await app.newPage();
    await page.goto("/developers");
    await page.getByRole("link", { name: "API reference", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/docs");
    await page.getByRole("heading", { name: /Smart Decision API/ }).waitFor();
    await page.locator('.opblock-summary-path[data-path="/v1/ensemble"]').waitFor();
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

/** The copied samples, run as a developer would run them, against the product, with an API key of a new account. */
describe.skipIf(browserUnavailable)("the developers samples work against this API", () => {
  beforeAll(() => {
    if (!existsSync(SDK_BUILD)) throw new Error(`${SDK_BUILD} is missing: build the SDK first (npm run build -w @smart-decision/sdk; npm test does)`);
  });

  it("REST API: the curl samples answer a decision, an async decision's state, the history and suggestions", async () => {
    const env = await withKey();
    const page = await app.newPage();
    await page.goto("/developers");
    const shell = async (title: string) => JSON.parse((await run("sh", ["-c", await copyFromPage(page, "REST API", title)], { env })).stdout) as unknown;

    const decision = V1EnsembleResponseSchema.strict().parse(await shell("Make a decision"));
    // Early quorum is on by default for the API: a third vote that cannot change the winner is skipped.
    expect([2, 3]).toContain(decision.total_votes);
    expect(["Yes", "No", "Wait until Monday"]).toContain(decision.ensemble_decision);

    const status = V1DecisionStatusSchema.parse(await shell("Decide without waiting"));
    expect(status.decision_id).not.toBe(decision.decision_id);

    const history = (await shell("Decision history")) as { total: number; decisions: { id: string }[] };
    expect(history.decisions.map((d) => d.id)).toContain(decision.decision_id);

    const command = await copyFromPage(page, "REST API", "Suggest answer categories");
    scriptSuggestions();
    const suggestions = JSON.parse((await run("sh", ["-c", command])).stdout) as { suggestions: unknown[] };
    expect(suggestions.suggestions).toContainEqual(SUGGESTION);
  });

  it("OpenAI-compatible: the openai package's sample (JavaScript), and the curl one, decide; the Python one runs where the openai package is installed", async () => {
    const env = await withKey();
    const page = await app.newPage();
    await page.goto("/developers");
    const file = join(scratch, "openai-sample.mjs");
    writeFileSync(file, await copyFromPage(page, "OpenAI-compatible", "JavaScript (openai and zod)"));
    const output = (await run(process.execPath, [file], { cwd: scratch, env })).stdout;
    expect(output).toMatch(decisionOutput);
    expect(output).toMatch(/(openai|gemini|claude): (Yes|No|Wait until Monday) \(/);

    const completion = JSON.parse((await run("sh", ["-c", await copyFromPage(page, "OpenAI-compatible", "curl (chat completions)")], { env })).stdout) as { object: string; choices: { message: { content: string } }[] };
    expect(completion.object).toBe("chat.completion");
    expect(["Yes", "No", "Wait until Monday"]).toContain((JSON.parse(completion.choices[0]!.message.content) as { answer: string }).answer);

    const sample = await copyFromPage(page, "OpenAI-compatible", "Python (openai package)");
    if (!(await python("openai"))) {
      // Debian has no python3-openai and pip cannot reach PyPI here; the JavaScript SDK and curl above cover the wire format.
      console.warn(`Not running the Python openai sample: ${PYTHON} has no openai package.`);
      return;
    }
    writeFileSync(join(scratch, "openai_sample.py"), sample);
    expect((await run(PYTHON, [join(scratch, "openai_sample.py")], { env })).stdout).toMatch(decisionOutput);
  });

  it("MCP: the client configuration names this server's /mcp, and the MCP SDK sample decides with a progress line per vote", async () => {
    const env = await withKey();
    const page = await app.newPage();
    await page.goto("/developers");
    const config = JSON.parse(await copyFromPage(page, "MCP", "Connect an MCP client")) as { mcpServers: Record<string, { url: string; headers: Record<string, string> }> };
    expect(config.mcpServers["smart-decision"]).toEqual({ url: `${app.url}/mcp`, headers: { Authorization: "Bearer sd_live_..." } });
    const desktop = JSON.parse(await copyFromPage(page, "MCP", "Connect Claude Desktop (stdio)")) as { mcpServers: Record<string, unknown> };
    expect(desktop.mcpServers["smart-decision"]).toEqual({
      command: "npx",
      args: ["-y", "@smart-decision/mcp"],
      env: { SMART_DECISION_API_KEY: "sd_live_...", SMART_DECISION_URL: app.url },
    });
    const file = join(scratch, "mcp-sample.mjs");
    writeFileSync(file, await copyFromPage(page, "MCP", "Call decide from code"));
    const output = (await run(process.execPath, [file], { cwd: scratch, env })).stdout;
    expect(output).toMatch(/^Vote: (openai|gemini|claude): /m);
    expect(output).toMatch(decisionOutput);
  });

  for (const [tab, extension, runner] of [
    ["JavaScript", "mjs", process.execPath],
    ["TypeScript", "mts", join(REPO, "node_modules/.bin/tsx")],
  ] as const) {
    it(`${tab}: the SDK samples run (${extension === "mjs" ? "node" : "tsx"}): decide, submit and wait, history, live votes`, async () => {
      const env = await withKey();
      const page = await app.newPage();
      await page.goto("/developers");
      expect(await copyFromPage(page, tab, "Install the SDK")).toContain(SDK_INSTALL);
      const outputs: Record<string, string> = {};
      for (const title of ["Make a decision", "Decide without waiting", "Decision history", "Watch the votes arrive"]) {
        const file = join(scratch, `${tab}-${title.replaceAll(" ", "-")}.${extension}`);
        writeFileSync(file, await copyFromPage(page, tab, title));
        outputs[title] = (await run(runner, [file], { cwd: scratch, env })).stdout;
      }
      expect(outputs["Make a decision"]).toMatch(decisionOutput);
      expect(outputs["Make a decision"]).toMatch(/(openai|gemini|claude): (Yes|No|Wait until Monday) \(confidence [\d.]+\)/);
      expect(outputs["Decide without waiting"]).toMatch(/Queued: [0-9a-f-]{36}/);
      expect(outputs["Decide without waiting"]).toMatch(decisionOutput);
      // The two decisions above are in the key owner's history.
      expect(Number(historyOutput.exec(outputs["Decision history"]!)?.[1])).toBeGreaterThanOrEqual(2);
      expect(outputs["Decision history"]).toContain("Should we ship the release on Friday? -> ");
      const live = outputs["Watch the votes arrive"]!;
      expect(live).toMatch(decisionOutput);
      for (const provider of ["openai", "gemini", "claude"]) {
        expect(live, provider).toContain(`${provider}: pending`);
        // A vote early quorum did not need ends as skipped.
        expect(live, provider).toMatch(new RegExp(`${provider}: (success|skipped)`));
      }
    });
  }

  it("Python: the samples run where requests (and python-socketio for live votes) are installed", async (context) => {
    if (!(await python("requests"))) context.skip(`${PYTHON} with requests is not installed (set PYTHON to another interpreter)`);
    const env = await withKey();
    const page = await app.newPage();
    await page.goto("/developers");
    const decision = await run(PYTHON, ["-c", await copyFromPage(page, "Python", "Make a decision")], { env });
    expect(decision.stdout).toMatch(decisionOutput);
    expect(decision.stdout).toMatch(/Consensus: \d+% of [23] votes/);
    const history = await run(PYTHON, ["-c", await copyFromPage(page, "Python", "Decision history")], { env });
    expect(Number(historyOutput.exec(history.stdout)?.[1])).toBeGreaterThanOrEqual(1);
    const script = await copyFromPage(page, "Python", "Suggest answer categories");
    scriptSuggestions();
    expect((await run(PYTHON, ["-c", script])).stdout).toContain(suggestionOutput);
    if (!(await python("socketio"))) {
      console.warn(`Not running the Python live-votes sample: ${PYTHON} has no python-socketio (set PYTHON to an interpreter with it)`);
      return;
    }
    const live = await run(PYTHON, ["-c", await copyFromPage(page, "Python", "Watch the votes arrive")], { env });
    expect(live.stdout).toMatch(decisionOutput);
    expect(live.stdout).toMatch(/(openai|gemini|claude): success/);
  });
});
