import { tracingChannel } from "node:diagnostics_channel";
import { existsSync } from "node:fs";
import type { Application, Request } from "express";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_KEY_HEADER, API_KEY_MESSAGES } from "@sd/contracts";
import { useEmulator } from "@sd/provider-emulator/testing";
import { callApi } from "@sd/testing/history";
import { useStackWithMail } from "@sd/testing/stack-with-mail";

/**
 * The OpenAPI document against the gateway that serves it: every route the running app mounts
 * under /v1 and /api, and the external paths, is documented (method and path); /openapi.json and
 * /docs are served with their own CSP; and /docs renders in Chromium with no request leaving
 * loopback (the product must work offline).
 */

const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const browserUnavailable = existsSync(CHROMIUM_PATH) ? null : `Chromium not found at ${CHROMIUM_PATH}: install it (apt-get install chromium) or set CHROMIUM_PATH`;
if (browserUnavailable) console.warn(`Skipping the /docs browser test: ${browserUnavailable}`);

/** Paths a client calls outside /api and /v1. */
const EXTERNAL_PATHS = ["/decision-history", "/health"];

const emulator = useEmulator();
const stack = useStackWithMail(emulator);

interface RouteLayer {
  rawPath?: string | RegExp | (string | RegExp)[];
  route?: { methods: Record<string, boolean> };
  handle: { stack?: RouteLayer[] };
}

/**
 * The express app serving the stack, as Express announces it: the router publishes each request on
 * the `express.router.request` tracing channel (node:diagnostics_channel), with `req.app`.
 */
async function runningApp(url: string): Promise<Application> {
  const channel = tracingChannel<string, { req: Request }>("express.router.request");
  let app: Application | undefined;
  const handlers = {
    start: (ctx: { req: Request }) => {
      app ??= ctx.req.app;
    },
    end: () => undefined,
    asyncStart: () => undefined,
    asyncEnd: () => undefined,
    error: () => undefined,
  };
  channel.subscribe(handlers);
  try {
    await fetch(`${url}/health`);
  } finally {
    channel.unsubscribe(handlers);
  }
  if (!app) throw new Error("no request was traced: is express's router tracing channel still published?");
  return app;
}

/** Every `METHOD /path` the router serves, with mount paths joined and `:param` written `{param}`. */
function mountedRoutes(stack: RouteLayer[], prefix = ""): string[] {
  const routes: string[] = [];
  for (const layer of stack) {
    const raw = layer.rawPath ?? "/";
    for (const path of Array.isArray(raw) ? raw : [raw]) {
      // Regular expressions are the web app's fallback, not API routes.
      if (typeof path !== "string") continue;
      const full = `${prefix}${path === "/" ? "" : path}`;
      if (layer.route) {
        for (const method of Object.keys(layer.route.methods).filter((m) => m !== "_all")) {
          routes.push(`${method.toUpperCase()} ${full.replace(/:(\w+)/g, "{$1}") || "/"}`);
        }
      } else if (layer.handle.stack) {
        routes.push(...mountedRoutes(layer.handle.stack, full));
      }
    }
  }
  return routes;
}

const isPublicApi = (route: string) => {
  const path = route.split(" ")[1]!;
  return path.startsWith("/api/") || path.startsWith("/v1/") || EXTERNAL_PATHS.some((external) => path === external || path.startsWith(`${external}/`));
};

async function openApiDocument(): Promise<{ openapi: string; paths: Record<string, Record<string, unknown>> }> {
  const response = await fetch(`${stack.url}/openapi.json`);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  return (await response.json()) as { openapi: string; paths: Record<string, Record<string, unknown>> };
}

describe("GET /openapi.json", () => {
  it("documents every route the gateway mounts under /v1, /api and the external paths, and no route it does not", async () => {
    const app = await runningApp(stack.url);
    const everything = new Set(mountedRoutes((app.router as unknown as { stack: RouteLayer[] }).stack));
    const mounted = [...everything].filter(isPublicApi);
    // The walk must see the routes it is meant to check, or it would pass by finding nothing.
    expect(mounted).toEqual(expect.arrayContaining(["GET /health", "POST /api/ensembled-llm-categorical-decision-public", "GET /api/decision-history/{id}"]));

    const document = await openApiDocument();
    expect(document.openapi).toBe("3.1.0");
    const documented = Object.entries(document.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`));
    expect(mounted.filter((route) => !documented.includes(route)), "mounted but not in /openapi.json").toEqual([]);
    expect(documented.filter((route) => !everything.has(route)), "in /openapi.json but not mounted").toEqual([]);
  });

  it("documents the public API: /v1/ensemble, /v1/decisions/{id}, /v1/decision-history and /decision-history with the SD-API-KEY scheme", async () => {
    const document = (await openApiDocument()) as unknown as {
      paths: Record<string, Record<string, { security?: Record<string, string[]>[] }>>;
      components: { securitySchemes: Record<string, { type: string; in?: string; name?: string }> };
    };
    const scheme = Object.entries(document.components.securitySchemes).find(([, s]) => s.type === "apiKey")!;
    expect(scheme[1]).toMatchObject({ in: "header", name: API_KEY_HEADER });
    for (const [method, path] of [
      ["post", "/v1/ensemble"],
      ["get", "/v1/decisions/{id}"],
      ["get", "/v1/decision-history"],
      ["get", "/decision-history"],
    ] as const) {
      expect(document.paths[path]?.[method]?.security, `${method} ${path}`).toEqual([{ [scheme[0]]: [] }]);
    }
  });
});

describe("GET /docs", () => {
  it("serves the reference page and its assets from this server, with a CSP of their own", async () => {
    const page = await fetch(`${stack.url}/docs`);
    expect(page.status).toBe(200);
    const html = await page.text();
    const csp = page.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    // The site's own pages keep the site's policy.
    expect((await fetch(`${stack.url}/`)).headers.get("content-security-policy")).not.toBe(csp);

    const sources = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(sources.length).toBeGreaterThan(2);
    for (const source of sources) {
      expect(source, "every asset comes from this server").toMatch(/^\/(?!\/)/);
      const asset = await fetch(`${stack.url}${source}`);
      expect(asset.status, source).toBe(200);
      expect(asset.headers.get("content-type"), source).not.toMatch(/text\/html/);
      await asset.arrayBuffer();
    }
  });

  describe.skipIf(browserUnavailable)("in Chromium", () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await chromium.launch({
        executablePath: CHROMIUM_PATH,
        headless: true,
        args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
      });
    });
    afterAll(async () => {
      await browser?.close();
    });

    it("renders every operation and runs a call with an API key, with no request leaving loopback and no CSP violation", async () => {
      const context = await browser.newContext();
      const outside: string[] = [];
      await context.route("**/*", async (route) => {
        const { hostname, protocol } = new URL(route.request().url());
        const loopback = hostname === "127.0.0.1" || hostname === "localhost" || hostname === "[::1]";
        if (loopback || protocol === "data:" || protocol === "blob:") return route.continue();
        outside.push(route.request().url());
        return route.abort();
      });
      // Runs in the page (this file has no DOM types): every CSP violation the browser reports.
      await context.addInitScript({
        content: `window.cspViolations = []; document.addEventListener("securitypolicyviolation", (e) => window.cspViolations.push(e.violatedDirective + " " + e.blockedURI));`,
      });
      const page = await context.newPage();
      const violations: string[] = [];
      page.on("console", (message) => {
        if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
      });
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(error.message));

      await page.goto(`${stack.url}/docs`);
      await page.getByRole("heading", { name: /Smart Decision API/ }).waitFor();
      const ensemble = page.locator('.opblock-summary-path[data-path="/v1/ensemble"]');
      await ensemble.waitFor();

      // Open POST /v1/ensemble: its example request body and the SD-API-KEY requirement are shown.
      await ensemble.click();
      const block = page.locator(".opblock.is-open").filter({ has: page.locator('[data-path="/v1/ensemble"]') });
      await block.getByText("Should we ship the release on Friday?").first().waitFor();
      await block.getByRole("heading", { name: "Parameters" }).waitFor();
      expect(await block.textContent()).toContain("Idempotency-Key");

      const openapi = await openApiDocument();
      const operations = Object.values(openapi.paths).reduce((count, item) => count + Object.keys(item).length, 0);
      expect(await page.locator(".opblock").count()).toBe(operations);

      // Authorize with a key, then "Try it out": the call goes to this server with the SD-API-KEY header
      // and its answer (a 401 for this made-up key) is shown.
      await page.getByRole("button", { name: /Authorize/ }).first().click();
      const auth = page.locator(".auth-container").filter({ hasText: API_KEY_HEADER });
      await auth.locator("input").fill("sd_live_made-up-key-for-the-reference");
      await auth.getByRole("button", { name: "Apply credentials" }).click();
      await page.locator(".modal-ux").getByRole("button", { name: "Close" }).first().click();

      const history = page.locator(".opblock").filter({ has: page.locator('.opblock-summary-path[data-path="/v1/decision-history"]') });
      await history.locator(".opblock-summary").click();
      await history.getByRole("button", { name: "Try it out" }).click();
      const sent = page.waitForRequest((request) => new URL(request.url()).pathname === "/v1/decision-history");
      await history.getByRole("button", { name: "Execute" }).click();
      expect((await sent).headers()[API_KEY_HEADER.toLowerCase()]).toBe("sd_live_made-up-key-for-the-reference");
      await history.locator(".live-responses-table .response-col_status").filter({ hasText: "401" }).waitFor();
      await history.locator(".live-responses-table").getByText(API_KEY_MESSAGES.invalidKey).first().waitFor();

      expect(outside).toEqual([]);
      expect(violations).toEqual([]);
      expect(await page.evaluate("window.cspViolations")).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    });

    it("makes a new decision on every Execute of POST /v1/ensemble, whatever the body: nothing pre-filled asks for 202 or replays a key", async () => {
      const auth = await stack.signIn();
      const created = await callApi(stack.url, "/api/api-keys", auth.tokens.access_token, { body: { name: "docs" } });
      expect(created.status, created.text).toBe(201);
      const apiKey = String(created.body.keyvalue);

      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${stack.url}/docs`);
      await page.getByRole("button", { name: /Authorize/ }).first().click();
      const keyDialog = page.locator(".auth-container").filter({ hasText: API_KEY_HEADER });
      await keyDialog.locator("input").fill(apiKey);
      await keyDialog.getByRole("button", { name: "Apply credentials" }).click();
      await page.locator(".modal-ux").getByRole("button", { name: "Close" }).first().click();

      const ensemble = page.locator(".opblock").filter({ has: page.locator('.opblock-summary-path[data-path="/v1/ensemble"]') });
      await ensemble.locator(".opblock-summary").click();
      await ensemble.getByRole("button", { name: "Try it out" }).click();
      // The optional headers start empty.
      for (const input of await ensemble.locator(".parameters input").all()) expect(await input.inputValue()).toBe("");

      const decisions: { status: number; body: Record<string, unknown> }[] = [];
      for (const prompt of ["Tea or coffee?", "Ship on Friday?"]) {
        await ensemble.locator("textarea.body-param__text").fill(JSON.stringify({ prompt, valid_responses: ["Yes", "No"] }));
        const answered = page.waitForResponse((response) => new URL(response.url()).pathname === "/v1/ensemble" && response.request().method() === "POST");
        await ensemble.getByRole("button", { name: "Execute" }).click();
        const response = await answered;
        decisions.push({ status: response.status(), body: (await response.json()) as Record<string, unknown> });
      }
      expect(decisions.map((d) => d.status)).toEqual([200, 200]);
      expect(decisions[0]!.body.decision_id).not.toBe(decisions[1]!.body.decision_id);
      expect(decisions.every((d) => typeof d.body.ensemble_decision === "string")).toBe(true);
      await context.close();
    });
  });
});
