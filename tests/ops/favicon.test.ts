import { existsSync } from "node:fs";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webAppRoutes } from "@sd/gateway";

/** Browsers ask every site for /favicon.ico: it is an icon, not the not-found page. */
const DIST = new URL("../../web/dist/", import.meta.url);
const webBuilt = existsSync(new URL("index.html", DIST));
if (!webBuilt) console.warn("favicon.test.ts: web/dist is not built (`npm run build -w web`): the favicon tests are skipped.");

describe.skipIf(!webBuilt)("the favicon", () => {
  let server: ReturnType<ReturnType<typeof express>["listen"]>;
  let base: string;
  beforeAll(async () => {
    const app = express().use(webAppRoutes(DIST.pathname));
    server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server?.close(resolve)));

  it.each([
    ["/favicon.ico", /^image\/(vnd\.microsoft\.icon|x-icon)/],
    ["/favicon.svg", /^image\/svg\+xml/],
  ])("answers %s with an image", async (path, type) => {
    const response = await fetch(`${base}${path}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(type);
    expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(0);
  });

  it("is linked from every page", async () => {
    const page = await (await fetch(`${base}/`)).text();
    expect(page).toContain('<link rel="icon" href="/favicon.ico"');
    expect(page).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml"');
  });
});
