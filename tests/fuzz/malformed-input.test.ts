import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useEmulator } from "@sd/provider-emulator/testing";
import { testEnv } from "@sd/testing/env";
import { startStack, type InProcessStack } from "@sd/testing/stack";

/**
 * Bodies no browser would send, written byte for byte over TCP: each must be refused with a 400
 * and a `detail` (never a 500), store nothing, and a body that stops arriving must not hold its
 * connection for Node's default five minutes.
 */

const PATH = "/api/job-application";
const IDLE_MS = 800;
const TOTAL_MS = 3_000;

const emulator = useEmulator();
let stack: InProcessStack;
let host: string;
let port: number;

beforeAll(async () => {
  stack = await startStack(testEnv(emulator.url, { REQUEST_IDLE_TIMEOUT_MS: String(IDLE_MS), REQUEST_TIMEOUT_MS: String(TOTAL_MS) }));
  const url = new URL(stack.url);
  host = url.hostname;
  port = Number(url.port);
});
afterAll(async () => {
  await stack?.close();
});

interface RawReply {
  /** 0 when the server closed the connection without answering. */
  status: number;
  body: string;
  /** From the first byte written to the connection's close. */
  elapsedMs: number;
}

/** Opens a connection, lets `write` send whatever it likes, and resolves when the server closes it. */
function raw(write: (socket: Socket) => void): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, host);
    const chunks: Buffer[] = [];
    let started = 0;
    socket.on("connect", () => {
      started = performance.now();
      write(socket);
    });
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const [head = "", ...rest] = text.split("\r\n\r\n");
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
      resolve({ status, body: rest.join("\r\n\r\n"), elapsedMs: performance.now() - started });
    });
  });
}

function request(contentType: string | null, body: Buffer | string, contentLength = Buffer.byteLength(body), path = PATH): string {
  return [
    `POST ${path} HTTP/1.1`,
    `Host: ${host}:${port}`,
    "Connection: close",
    ...(contentType === null ? [] : [`Content-Type: ${contentType}`]),
    `Content-Length: ${contentLength}`,
    "",
    "",
  ].join("\r\n");
}

const send = (contentType: string | null, body: Buffer | string): Promise<RawReply> =>
  raw((socket) => {
    socket.write(request(contentType, body));
    // Not `end`: a half-closed connection is an aborted request to Node; `Connection: close` ends it.
    socket.write(body);
  });

const BOUNDARY = "----sdBoundary7MA4YWxkTrZu0gW";
const field = (name: string, value: string): string => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const validFields =
  field("name", "Ada Lovelace") +
  field("email", "ada@example.com") +
  field("phone", "+44 20 7946 0000") +
  field("linkedin", "https://www.linkedin.com/in/ada") +
  field("accomplishment", "Wrote the first program.") +
  field("position", "Engineer") +
  field("department", "Engineering");

function expectRefused(reply: RawReply): string {
  expect(reply.status).toBe(400);
  const parsed = JSON.parse(reply.body) as { detail?: unknown };
  expect(typeof parsed.detail).toBe("string");
  const detail = parsed.detail as string;
  expect(detail.length).toBeGreaterThan(10);
  // Nothing of the parser's insides leaks out.
  expect(detail).not.toMatch(/busboy|multer|node_modules|\bat \S+ \(/i);
  return detail;
}

describe("malformed multipart on /api/job-application", () => {
  it("is a 400 with a clear detail when the content type has no boundary", async () => {
    const detail = expectRefused(await send("multipart/form-data", validFields));
    expect(detail).toMatch(/boundary/i);
  });

  it("is a 400 when the body is cut off in the middle of a part", async () => {
    const whole = validFields + `--${BOUNDARY}--\r\n`;
    const detail = expectRefused(await send(`multipart/form-data; boundary=${BOUNDARY}`, whole.slice(0, Math.floor(whole.length / 2))));
    expect(detail).toMatch(/malformed|incomplete/i);
  });

  it("is a 400 when the body is garbage", async () => {
    const garbage = Buffer.from(Array.from({ length: 2048 }, (_, i) => (i * 7919 + 13) % 256));
    expectRefused(await send(`multipart/form-data; boundary=${BOUNDARY}`, Buffer.concat([Buffer.from(`--${BOUNDARY}\r\n`), garbage])));
  });

  it("is a 400 when the closing boundary never comes", async () => {
    expectRefused(await send(`multipart/form-data; boundary=${BOUNDARY}`, validFields));
  });

  it("is a 400 when a part's header is broken", async () => {
    const broken = `--${BOUNDARY}\r\nContent-Disposition form-data name=name\r\nno colon here\r\n\r\nAda\r\n--${BOUNDARY}--\r\n`;
    expectRefused(await send(`multipart/form-data; boundary=${BOUNDARY}`, broken));
  });

  it("stores no application for any of them, and a valid one still goes through", async () => {
    // The refusals above were answered before this test; none may have left a row behind.
    expect(await stack.store.applications.count()).toBe(0);
    const ok = await send(`multipart/form-data; boundary=${BOUNDARY}`, validFields + `--${BOUNDARY}--\r\n`);
    expect(ok.status).toBe(200);
    expect(await stack.store.applications.count()).toBe(1);
  });
});

describe("bodies that stop arriving", () => {
  it("are answered and closed within REQUEST_IDLE_TIMEOUT_MS when they declare more than they send", async () => {
    const before = await stack.store.applications.count();
    const reply = await raw((socket) => {
      const partial = validFields.slice(0, 100);
      socket.write(request(`multipart/form-data; boundary=${BOUNDARY}`, partial, 100_000));
      socket.write(partial); // ... and then nothing more, with the connection left open.
    });
    expect(reply.status).toBe(408);
    expect(typeof (JSON.parse(reply.body) as { detail?: unknown }).detail).toBe("string");
    expect(reply.elapsedMs).toBeGreaterThanOrEqual(IDLE_MS - 50);
    expect(reply.elapsedMs).toBeLessThan(IDLE_MS + 2_000);
    expect(await stack.store.applications.count()).toBe(before);
  });

  it("do the same on a JSON endpoint", async () => {
    const reply = await raw((socket) => {
      socket.write(
        [
          "POST /api/ensembled-llm-categorical-decision-public HTTP/1.1",
          `Host: ${host}:${port}`,
          "Connection: close",
          "Content-Type: application/json",
          "Content-Length: 5000",
          "",
          '{"question":"Tea?",',
        ].join("\r\n"),
      );
    });
    expect(reply.status).toBe(408);
    expect(reply.elapsedMs).toBeLessThan(IDLE_MS + 2_000);
  });

  it("are closed within the idle timeout when the headers stop arriving", async () => {
    const reply = await raw((socket) => socket.write(`POST ${PATH} HTTP/1.1\r\nHost: ${host}\r\nContent-Le`));
    expect(reply.status === 408 || reply.status === 0).toBe(true);
    expect(reply.elapsedMs).toBeLessThan(IDLE_MS + 2_000);
  });

  it("are cut at REQUEST_TIMEOUT_MS even when they trickle in faster than the idle timeout", async () => {
    let trickle: NodeJS.Timeout | undefined;
    const reply = await raw((socket) => {
      // A route that reads its body (the form refuses a JSON body before reading it).
      socket.write(request("application/json", "", 1_000_000, "/api/ensembled-llm-categorical-decision-public"));
      // The scenario itself (a slow-drip client), not a wait for synchronisation.
      trickle = setInterval(() => socket.writable && socket.write(" "), IDLE_MS / 4);
    });
    clearInterval(trickle);
    expect(reply.status === 408 || reply.status === 0).toBe(true);
    expect(reply.elapsedMs).toBeGreaterThanOrEqual(TOTAL_MS - 50);
    expect(reply.elapsedMs).toBeLessThan(TOTAL_MS + 2_500);
  });

  it("leave a decision that takes longer than the idle timeout alone once its body has arrived", async () => {
    emulator.addRules({ latency_ms: IDLE_MS * 2, respond: { kind: "answer", category: "Yes" } });
    const res = await fetch(`${stack.url}/api/ensembled-llm-categorical-decision-public`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ question: "Tea or coffee?", categories: ["Yes", "No"] }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { final_decision: string }).final_decision).toBe("Yes");
  });
});
