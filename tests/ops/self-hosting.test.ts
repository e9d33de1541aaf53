import { existsSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gatewayEnv, loadEnv, providersFromEnv } from "@sd/config";
import { API_KEY_HEADER, CLIENT_ROUTES } from "@sd/contracts";
import { startGateway, type Gateway } from "@sd/gateway";
import { useEmulator } from "@sd/provider-emulator/testing";
import { createLogger } from "@sd/telemetry";
import { postJson } from "@sd/testing/client";
import { freePort } from "@sd/testing/processes";
import { testEnv } from "@sd/testing/env";
import { magicLinkToken } from "@sd/testing/sign-in";
import { SmtpCapture } from "@sd/testing/smtp-capture";
import { startStack, type InProcessStack } from "@sd/testing/stack";

/**
 * What someone running the site on their own machine or LAN hits first: the page over plain
 * http, sign-in links on their port, a readable log, and real 404s.
 */
const emulator = useEmulator();
let smtp: SmtpCapture;
let stack: InProcessStack;
let port: number;

beforeAll(async () => {
  smtp = await SmtpCapture.start();
  // A port nothing listens on now, so the stack can be given a fixed PORT (as a self-hoster does).
  port = await freePort();
  // As in docker compose or on a LAN server: every interface, one fixed port, behind at most one proxy, no PUBLIC_URL.
  stack = await startStack(testEnv(emulator.url, { SMTP_URL: smtp.url, HOST: "0.0.0.0", PORT: String(port), TRUST_PROXY: "1" }));
});
afterAll(async () => {
  await stack?.close();
  await smtp?.close();
});

const local = (path: string, init?: RequestInit) => fetch(`http://127.0.0.1:${port}${path}`, init);

describe("security headers", () => {
  it("lets a browser load the site over plain http: no upgrade of assets to https and no HSTS", async () => {
    const response = await local("/");
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'self'");
    expect(csp).not.toContain("upgrade-insecure-requests");
    expect(response.headers.get("strict-transport-security")).toBeNull();
  });

  it("upgrades and pins https when a trusted proxy says the request came over https", async () => {
    const response = await local("/", { headers: { "x-forwarded-proto": "https" } });
    expect(response.headers.get("content-security-policy")).toContain("upgrade-insecure-requests");
    expect(response.headers.get("strict-transport-security")).toMatch(/max-age=\d+/);
  });
});

describe("sign-in links without PUBLIC_URL", () => {
  it("point at the port the site listens on, at an address a browser can open even when HOST is 0.0.0.0", async () => {
    const email = "self-hoster@example.com";
    expect((await postJson(`http://127.0.0.1:${port}/api/auth/magic-link/request`, { email })).status).toBe(200);
    const { link } = magicLinkToken((await smtp.nextTo(email)).text);
    expect(link.startsWith(`http://127.0.0.1:${port}/auth/callback?token=`)).toBe(true);
    const opened = await fetch(link);
    expect(opened.status).toBe(200);
  });
});

const webBuilt = existsSync(new URL("../../web/dist/index.html", import.meta.url));
if (!webBuilt) console.warn("self-hosting.test.ts: web/dist is not built (`npm run build -w web`): the page status tests are skipped.");

describe.skipIf(!webBuilt)("pages and the not-found page", () => {
  const indexHtml = () => readFileSync(new URL("../../web/dist/index.html", import.meta.url), "utf8");
  const concrete = (route: string) => route.replace(/:[^/]+/g, "5f0c8d7e-1a2b-4c3d-9e8f-0a1b2c3d4e5f");

  it.each(CLIENT_ROUTES.map((route) => [route]))("answers %s with the web app and 200", async (route) => {
    const response = await local(concrete(route));
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(indexHtml());
  });

  it.each([["/no-such-page"], ["/decision"], ["/decision/1/extra"], ["/admin/users"], ["/assets/missing-bundle.js"]])(
    "answers %s with the web app (which shows the not-found page) and 404",
    async (path) => {
      const response = await local(path);
      expect(response.status).toBe(404);
      expect(response.headers.get("content-type")).toMatch(/^text\/html/);
      expect(await response.text()).toBe(indexHtml());
    },
  );

  it("answers another method on an unknown path with a JSON 404", async () => {
    const response = await local("/no-such-page", { method: "POST" });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ detail: "Not found" });
  });
});

describe("request logs", () => {
  let replica: Gateway;
  const lines: string[] = [];

  /** A second gateway on the stack's store and Redis, logging into `lines` at the most verbose level. */
  beforeAll(async () => {
    const vars = { ...stack.vars, PORT: "0", HOST: "127.0.0.1" };
    const env = loadEnv(gatewayEnv, vars);
    const configs = new Map(providersFromEnv([...new Set([...env.PROVIDERS, env.SUGGESTION_PROVIDER])], vars).map((c) => [c.id, c]));
    const logger = createLogger("gateway-replica", "trace", { write: (line: string) => void lines.push(line) });
    replica = await startGateway(env, stack.store, { deciders: env.PROVIDERS.map((id) => configs.get(id)!), suggester: configs.get(env.SUGGESTION_PROVIDER)! }, logger);
  });
  afterAll(async () => {
    await replica?.close();
  });

  /** The parsed log lines of one request, found by its request id. */
  const linesOf = (requestId: string) => lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.request_id === requestId);

  it("writes one short line per decision: method, path, status, duration, request id and decision id — no headers", async () => {
    const secrets = { authorization: "Bearer secret-access-token", cookie: "sd_refresh=secret-cookie", [API_KEY_HEADER]: "sd_secret-api-key" };
    const response = await fetch(`${replica.url}/api/ensembled-llm-categorical-decision-public`, {
      method: "POST",
      headers: { "content-type": "application/json", "user-agent": "curl/8.0 self-hoster", ...secrets },
      body: JSON.stringify({ question: "Tea or coffee?", categories: ["Tea", "Coffee"] }),
    });
    expect(response.status).toBe(200);
    const { decision_id } = (await response.json()) as { decision_id: string };
    const requestId = response.headers.get("x-request-id")!;

    const logged = linesOf(requestId);
    expect(logged).toHaveLength(1);
    const [line] = logged;
    expect(line).toMatchObject({ msg: expect.stringMatching(/^POST \/api\/ensembled-llm-categorical-decision-public 200 \d+ms$/), decision_id, request_id: requestId });
    expect(line!.duration_ms).toEqual(expect.any(Number));
    const text = JSON.stringify(line);
    expect(text).not.toMatch(/secret-access-token|secret-cookie|secret-api-key|curl\/8\.0|content-type/);
    expect(text.length).toBeLessThan(400);
  });

  it("keeps query values out of the log, paging aside", async () => {
    const response = await fetch(`${replica.url}/auth/callback?token=secret-sign-in-token&limit=20`);
    const [line] = linesOf(response.headers.get("x-request-id")!);
    expect(line!.msg).toMatch(/^GET \/auth\/callback\?token=\[redacted\]&limit=20 \d{3} \d+ms$/);
    expect(JSON.stringify(lines)).not.toContain("secret-sign-in-token");
  });

  it("names the request id a proxy sent", async () => {
    await fetch(`${replica.url}/api/providers`, { headers: { "x-request-id": "proxy-request-42" } });
    expect(linesOf("proxy-request-42")).toHaveLength(1);
  });
});
