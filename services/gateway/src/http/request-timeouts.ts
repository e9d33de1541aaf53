import type { IncomingMessage, Server, ServerOptions, ServerResponse } from "node:http";

export interface RequestTimeouts {
  /** REQUEST_TIMEOUT_MS: the whole request (headers and body) must have arrived by then. */
  totalMs: number;
  /** REQUEST_IDLE_TIMEOUT_MS: the headers or the body may not pause for longer. */
  idleMs: number;
}

/** Node's own default; long enough for a browser to reuse a connection between requests. */
const KEEP_ALIVE_MS = 5_000;

const STALLED = "The request stopped arriving before it was complete; send it again.";

/**
 * Node's built-in limits, tightened: the total time for a request to arrive, and headers that
 * must arrive within the idle timeout. Node checks both only every `connectionsCheckingInterval`
 * (30 s by default), which would stretch a 20 s limit to 50 s, so it checks more often here.
 */
export function requestTimeoutOptions(t: RequestTimeouts): ServerOptions {
  const headersTimeout = Math.min(t.idleMs, t.totalMs);
  return {
    requestTimeout: t.totalMs,
    headersTimeout,
    keepAliveTimeout: KEEP_ALIVE_MS,
    connectionsCheckingInterval: Math.min(1_000, Math.max(50, Math.floor(headersTimeout / 4))),
  };
}

/**
 * Node has no idle limit for a body: a client that declares a Content-Length and then stops
 * sending holds its connection until `requestTimeout`. While a request's body is still arriving,
 * its socket gets the idle timeout; when it fires with the body incomplete the client is answered
 * 408 and the connection closed. Once the body is in, the wait for the answer (a decision may take
 * DECISION_TIMEOUT_MS) is ours, so the timeout is lifted.
 */
export function closeStalledBodies(server: Server, idleMs: number): void {
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    if (req.complete) return;
    const socket = req.socket;
    socket.setTimeout(idleMs);
    const lift = (): void => {
      socket.setTimeout(0);
    };
    req.once("end", lift);
    // Node emits `timeout` on the response whenever its socket idles; a listener also stops Node
    // from destroying the socket on its own, so this decides.
    res.on("timeout", () => {
      if (req.complete) {
        lift();
        return;
      }
      if (res.headersSent) {
        socket.destroy();
        return;
      }
      const body = JSON.stringify({ detail: STALLED });
      res.writeHead(408, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(body), connection: "close" });
      res.end(body);
      // The rest of the body will not come: close once the answer is written.
      res.once("finish", () => socket.destroySoon());
    });
  });
}
