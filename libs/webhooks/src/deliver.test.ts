import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RESPONSE_EXCERPT_BYTES, WEBHOOK_USER_AGENT, WebhookDeliverer } from "./deliver";

const signature = { "webhook-id": "evt_t", "webhook-timestamp": "1700000000", "webhook-signature": "v1,abc" };
let server: Server;
let base: string;
const seen: { headers: IncomingMessage["headers"]; body: string }[] = [];
const routes: Record<string, (res: ServerResponse) => void> = {
  "/ok": (res) => res.writeHead(200, { "content-type": "text/plain" }).end("thanks"),
  "/big": (res) => res.writeHead(200).end("é".repeat(10_000)),
  "/redirect": (res) => res.writeHead(302, { location: "/ok" }).end(),
  "/busy": (res) => res.writeHead(429, { "retry-after": "7" }).end("slow down"),
  "/hang": () => undefined,
};

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      seen.push({ headers: req.headers, body });
      routes[req.url ?? ""]!(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe("WebhookDeliverer", () => {
  const lenient = new WebhookDeliverer({ connectTimeoutMs: 2000, responseTimeoutMs: 500, allowPrivate: true });
  afterAll(() => lenient.close());

  it("posts the body with the signature, content type and user agent", async () => {
    const result = await lenient.deliver(`${base}/ok`, '{"a":1}', signature);
    expect(result).toMatchObject({ status_code: 200, response_excerpt: "thanks", error: null, retry_after_ms: null });
    const request = seen.at(-1)!;
    expect(request.body).toBe('{"a":1}');
    expect(request.headers).toMatchObject({ ...signature, "content-type": "application/json", "user-agent": WEBHOOK_USER_AGENT });
  });

  it("keeps at most 4 KB of the answer", async () => {
    const result = await lenient.deliver(`${base}/big`, "{}", signature);
    expect(result.status_code).toBe(200);
    expect(Buffer.byteLength(result.response_excerpt!)).toBeLessThanOrEqual(RESPONSE_EXCERPT_BYTES);
    expect(Buffer.byteLength(result.response_excerpt!)).toBeGreaterThan(RESPONSE_EXCERPT_BYTES - 4);
  });

  it("does not follow redirects", async () => {
    const before = seen.length;
    expect((await lenient.deliver(`${base}/redirect`, "{}", signature)).status_code).toBe(302);
    expect(seen.length).toBe(before + 1);
  });

  it("reports Retry-After", async () => {
    expect(await lenient.deliver(`${base}/busy`, "{}", signature)).toMatchObject({ status_code: 429, retry_after_ms: 7000 });
  });

  it("gives up on a receiver that never answers", async () => {
    const result = await lenient.deliver(`${base}/hang`, "{}", signature);
    expect(result).toMatchObject({ status_code: null, error: "no response within 500 ms" });
    expect(result.latency_ms).toBeGreaterThanOrEqual(450);
  });

  it("reports a refused connection", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    expect((await lenient.deliver(`http://127.0.0.1:${port}/`, "{}", signature)).error).toMatch(/ECONNREFUSED/);
  });

  it("refuses internal addresses at connect time unless private URLs are allowed (DNS rebinding defence)", async () => {
    const strict = new WebhookDeliverer({ connectTimeoutMs: 2000, responseTimeoutMs: 500, allowPrivate: false });
    const before = seen.length;
    const port = new URL(base).port;
    expect((await strict.deliver(`http://localhost:${port}/ok`, "{}", signature)).error).toMatch(/refused: localhost resolves to an internal address/);
    expect((await strict.deliver(`${base}/ok`, "{}", signature)).error).toBe("refused: 127.0.0.1 is an internal address");
    expect((await strict.deliver(`http://[::ffff:127.0.0.1]:${port}/ok`, "{}", signature)).error).toMatch(/internal address/);
    expect(seen.length).toBe(before);
    await strict.close();
  });
});
