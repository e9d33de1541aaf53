import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, vi } from "vitest";

/** What a path answers: a status (with headers and body), or nothing ever ("hang"). */
export type ReceiverReply = { status: number; headers?: Record<string, string>; body?: string } | "hang";

export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/**
 * A webhook receiver on loopback (a real node:http server): each path answers its scripted replies in turn (the last one
 * repeats; an unscripted path answers 404) and every request is recorded.
 */
export class WebhookReceiver {
  readonly requests: ReceivedRequest[] = [];
  /** Requests held open by a "hang" reply right now. */
  open = 0;
  url = "";
  private readonly scripts = new Map<string, ReceiverReply[]>();
  private server: Server | null = null;

  static async start(): Promise<WebhookReceiver> {
    const receiver = new WebhookReceiver();
    await receiver.listen();
    return receiver;
  }

  private async listen(): Promise<void> {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        const path = req.url ?? "/";
        this.requests.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() });
        const script = this.scripts.get(path) ?? [{ status: 404 }];
        const reply = script.length > 1 ? script.shift()! : script[0]!;
        if (reply === "hang") {
          this.open += 1;
          res.on("close", () => (this.open -= 1));
          return;
        }
        res.writeHead(reply.status, { "content-type": "text/plain", ...reply.headers }).end(reply.body ?? "ok");
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    this.server = server;
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  /** Scripts `path` and returns its full URL. */
  script(path: string, replies: ReceiverReply[]): string {
    this.scripts.set(path, [...replies]);
    return `${this.url}${path}`;
  }

  at(path: string): ReceivedRequest[] {
    return this.requests.filter((request) => request.path === path);
  }

  /** Waits until `path` has had at least `count` requests, and returns them all. */
  async received(path: string, count: number, timeoutMs = 15_000): Promise<ReceivedRequest[]> {
    await vi.waitFor(() => expect(this.at(path).length).toBeGreaterThanOrEqual(count), { timeout: timeoutMs, interval: 20 });
    return this.at(path);
  }

  /** The Standard Webhooks headers of a request, as `Webhook.verify` takes them. */
  static signatureHeaders(request: ReceivedRequest): Record<"webhook-id" | "webhook-timestamp" | "webhook-signature", string> {
    return {
      "webhook-id": String(request.headers["webhook-id"]),
      "webhook-timestamp": String(request.headers["webhook-timestamp"]),
      "webhook-signature": String(request.headers["webhook-signature"]),
    };
  }

  async close(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server!.close(resolve));
  }
}
