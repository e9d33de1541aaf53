import { createServer as createHttpServer } from "node:http";
import { connect, createServer, type Server, type Socket } from "node:net";
import { once } from "node:events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KNOWN_PROVIDERS, type Vendor } from "@sd/contracts";
import { emulatorBaseUrl } from "@sd/provider-emulator";
import { useEmulator } from "@sd/provider-emulator/testing";
import { createProvider } from "./index";
import { emulatedProviderConfig } from "./test-config";

/**
 * The SDKs' HTTP transport, seen from the network: a TCP relay on loopback in front of the
 * emulator counts the connections the three vendors' calls open.
 */
const emu = useEmulator();

/** Relays every connection to `target`'s port and counts them. */
class CountingRelay {
  connections = 0;
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();

  private constructor(server: Server) {
    this.#server = server;
  }

  static async start(target: string): Promise<CountingRelay> {
    const { hostname, port } = new URL(target);
    const server = createServer();
    const relay = new CountingRelay(server);
    server.on("connection", (client) => {
      relay.connections++;
      const upstream = connect(Number(port), hostname);
      relay.#sockets.add(client).add(upstream);
      client.pipe(upstream).pipe(client);
      const end = () => {
        client.destroy();
        upstream.destroy();
        relay.#sockets.delete(client);
        relay.#sockets.delete(upstream);
      };
      client.on("error", end).on("close", end);
      upstream.on("error", end).on("close", end);
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    return relay;
  }

  get url(): string {
    const address = this.#server.address();
    if (address === null || typeof address === "string") throw new Error("the relay is not listening");
    return `http://127.0.0.1:${address.port}`;
  }

  async close(): Promise<void> {
    const closed = once(this.#server, "close");
    this.#server.close();
    // The pool keeps its connections open while idle: end them rather than wait for it.
    for (const socket of this.#sockets) socket.destroy();
    await closed;
  }
}

const VENDORS: readonly { vendor: Vendor; model: string }[] = [
  { vendor: "openai", model: KNOWN_PROVIDERS.gpt5.model },
  { vendor: "anthropic", model: "claude-emulated" },
  { vendor: "gemini", model: KNOWN_PROVIDERS.geminipro.model },
];

describe("the SDKs' shared keep-alive transport", () => {
  let relay: CountingRelay;
  beforeAll(async () => {
    relay = await CountingRelay.start(emu.url);
  });
  afterAll(async () => {
    await relay.close();
  });

  it("carries the calls of all three vendors' SDKs over the same few reused connections when they come one at a time", async () => {
    const providers = VENDORS.map(({ vendor, model }) =>
      createProvider(emulatedProviderConfig(emu.url, { vendor, model }, { baseUrl: emulatorBaseUrl(relay.url, vendor) })),
    );
    for (let round = 0; round < 5; round++) {
      for (const provider of providers) {
        const answer = await provider.vote({ question: `Keep the line open? ${round}`, categories: ["Yes", "No"], images: [] });
        expect(["Yes", "No"]).toContain(answer.category);
      }
    }
    expect(emu.calls()).toHaveLength(15);
    // One pool for all three SDKs (Gemini's global fetch included). It may open a second
    // connection when a call starts before the previous one's socket is marked idle again.
    expect(relay.connections).toBeLessThanOrEqual(2);
  });
});

/** A server at a moved address: answers every request with `status` to the same path on `target`, and counts them. */
async function movedTo(target: string, status: 307 | 308) {
  const seen: string[] = [];
  const server = createHttpServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    req.resume();
    res.writeHead(status, { location: `${target}${req.url}` }).end();
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe("a base URL that redirects", () => {
  // The transport sends a call without the copy fetch keeps for redirects, and again, following
  // them, only when the server answers with one: the model is still asked exactly once.
  it.each([
    { vendor: "openai" as const, model: KNOWN_PROVIDERS.gpt5.model, status: 307 as const },
    { vendor: "anthropic" as const, model: "claude-emulated", status: 308 as const },
  ])("still reaches the model ($vendor behind a $status), asking it once per vote", async ({ vendor, model, status }) => {
    const moved = await movedTo(emu.url, status);
    try {
      const provider = createProvider(emulatedProviderConfig(emu.url, { vendor, model }, { baseUrl: emulatorBaseUrl(moved.url, vendor) }));
      const before = emu.calls().length;
      for (const round of [1, 2]) {
        const answer = await provider.vote({ question: `Follow the move? ${round}`, categories: ["Yes", "No"], images: [] });
        expect(["Yes", "No"]).toContain(answer.category);
      }
      expect(emu.calls().length - before).toBe(2);
      // Each vote met the redirect twice: once refused without following it, once followed.
      expect(moved.seen).toHaveLength(4);
      expect(new Set(moved.seen.map((line) => line.split(" ")[0]))).toEqual(new Set(["POST"]));
    } finally {
      await moved.close();
    }
  });
});
