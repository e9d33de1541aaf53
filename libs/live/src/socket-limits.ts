import type { IncomingMessage } from "node:http";

/**
 * The client's address as express's `req.ip` gives it for a TRUST_PROXY hop count: the socket's
 * peer, or, behind `hops` trusted proxies, the X-Forwarded-For entry that many hops back.
 */
export function clientAddress(request: IncomingMessage, hops: number): string {
  const peer = request.socket.remoteAddress ?? "unknown";
  if (hops === 0) return peer;
  const header = request.headers["x-forwarded-for"];
  const forwarded = (Array.isArray(header) ? header.join(",") : (header ?? "")).split(",").map((entry) => entry.trim()).filter((entry) => entry !== "");
  const chain = [peer, ...forwarded.reverse()];
  return chain[Math.min(hops, chain.length - 1)]!;
}

/** Open connections per client address (one gateway's). */
export class ConnectionsPerAddress {
  private readonly open = new Map<string, number>();

  add(address: string): void {
    this.open.set(address, (this.open.get(address) ?? 0) + 1);
  }

  remove(address: string): void {
    const left = (this.open.get(address) ?? 1) - 1;
    if (left > 0) this.open.set(address, left);
    else this.open.delete(address);
  }

  count(address: string): number {
    return this.open.get(address) ?? 0;
  }
}

export type EventVerdict = "allowed" | "refused" | "disconnect";

/**
 * One socket's message budget, a token bucket: `burst` messages at once, refilled at `perSecond`.
 * A message past it is refused; a socket that goes on sending a whole burst's worth while refused
 * (the bucket never got full again) is to be disconnected. Kept in memory, one per socket: a few
 * numbers, checked for every message without a Redis round trip.
 */
export class EventBudget {
  private tokens: number;
  private refreshedAt: number;
  private refusals = 0;

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.tokens = burst;
    this.refreshedAt = now();
  }

  take(): EventVerdict {
    const now = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.refreshedAt) / 1000) * this.perSecond);
    this.refreshedAt = now;
    if (this.tokens >= this.burst) this.refusals = 0;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return "allowed";
    }
    this.refusals++;
    return this.refusals >= this.burst ? "disconnect" : "refused";
  }
}
