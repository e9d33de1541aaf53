import { randomUUID } from "node:crypto";
import { io, type Socket } from "socket.io-client";
import { SOCKET_EVENTS, type FinalEvent, type HistoryDecisionEvent, type JoinAck, type VoteEvent } from "@sd/contracts";

export async function postJson(url: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/**
 * A live client as the playground is one: joins its request's room, then records every event.
 * As the dashboard is one, it may also watch its user's history room with an access token.
 */
export class LiveClient {
  readonly votes: VoteEvent[] = [];
  readonly finals: FinalEvent[] = [];
  /** `history:decision` events, in arrival order. */
  readonly history: HistoryDecisionEvent[] = [];
  readonly requestId = randomUUID();
  private readonly socket: Socket;
  private finalWaiters: ((event: FinalEvent) => void)[] = [];
  private historyWaiters: { match: (event: HistoryDecisionEvent) => boolean; resolve: (event: HistoryDecisionEvent) => void }[] = [];

  constructor(url: string) {
    this.socket = io(url, { transports: ["websocket"], forceNew: true });
    this.socket.on(SOCKET_EVENTS.vote, (event: VoteEvent) => this.votes.push(event));
    this.socket.on(SOCKET_EVENTS.final, (event: FinalEvent) => {
      this.finals.push(event);
      for (const resolve of this.finalWaiters.splice(0)) resolve(event);
    });
    this.socket.on(SOCKET_EVENTS.historyDecision, (event: HistoryDecisionEvent) => {
      this.history.push(event);
      for (const waiter of [...this.historyWaiters]) {
        if (waiter.match(event)) {
          this.historyWaiters.splice(this.historyWaiters.indexOf(waiter), 1);
          waiter.resolve(event);
        }
      }
    });
  }

  onVote(listener: (event: VoteEvent) => void): void {
    this.socket.on(SOCKET_EVENTS.vote, listener);
  }

  async join(requestId: string = this.requestId): Promise<JoinAck> {
    return (await this.socket.timeout(5000).emitWithAck(SOCKET_EVENTS.join, { request_id: requestId })) as JoinAck;
  }

  /** Asks to follow the signed-in user's history (the dashboard's live updates). */
  async watchHistory(accessToken: unknown): Promise<JoinAck> {
    return (await this.socket.timeout(5000).emitWithAck(SOCKET_EVENTS.watchHistory, { access_token: accessToken })) as JoinAck;
  }

  /** The final event; resolves at once if it already arrived. */
  final(): Promise<FinalEvent> {
    const arrived = this.finals[0];
    if (arrived) return Promise.resolve(arrived);
    return new Promise((resolve) => this.finalWaiters.push(resolve));
  }

  /** The first history event (already received or still to come) that matches. */
  historyEvent(match: (event: HistoryDecisionEvent) => boolean = () => true): Promise<HistoryDecisionEvent> {
    const seen = this.history.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => this.historyWaiters.push({ match, resolve }));
  }

  /** Resolves when a progress event from `provider` reaches this client (a sentinel marks "everything before has arrived"). */
  voteFrom(provider: string): Promise<VoteEvent> {
    const seen = this.votes.find((v) => v.provider === provider);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => this.onVote((v) => v.provider === provider && resolve(v)));
  }

  close(): void {
    this.socket.close();
  }
}
