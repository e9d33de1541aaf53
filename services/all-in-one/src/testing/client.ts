import { randomUUID } from "node:crypto";
import { io, type Socket } from "socket.io-client";
import { SOCKET_EVENTS, type FinalEvent, type JoinAck, type VoteEvent } from "@sd/contracts";

export async function postJson(url: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** A live client as the playground is one: joins its request's room, then records every event. */
export class LiveClient {
  readonly votes: VoteEvent[] = [];
  readonly finals: FinalEvent[] = [];
  readonly requestId = randomUUID();
  private readonly socket: Socket;
  private finalWaiters: ((event: FinalEvent) => void)[] = [];

  constructor(url: string) {
    this.socket = io(url, { transports: ["websocket"], forceNew: true });
    this.socket.on(SOCKET_EVENTS.vote, (event: VoteEvent) => this.votes.push(event));
    this.socket.on(SOCKET_EVENTS.final, (event: FinalEvent) => {
      this.finals.push(event);
      for (const resolve of this.finalWaiters.splice(0)) resolve(event);
    });
  }

  onVote(listener: (event: VoteEvent) => void): void {
    this.socket.on(SOCKET_EVENTS.vote, listener);
  }

  async join(requestId: string = this.requestId): Promise<JoinAck> {
    return (await this.socket.timeout(5000).emitWithAck(SOCKET_EVENTS.join, { request_id: requestId })) as JoinAck;
  }

  /** The final event; resolves at once if it already arrived. */
  final(): Promise<FinalEvent> {
    const arrived = this.finals[0];
    if (arrived) return Promise.resolve(arrived);
    return new Promise((resolve) => this.finalWaiters.push(resolve));
  }

  close(): void {
    this.socket.close();
  }
}
