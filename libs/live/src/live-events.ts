import { Emitter } from "@socket.io/redis-emitter";
import type { Redis } from "ioredis";
import { SOCKET_EVENTS, requestRoom, userRoom, type BatchProgressEvent, type FinalEvent, type HistoryDecisionEvent, type VoteEvent } from "@sd/contracts";
import { decisionVotesChannel, socketIoKey } from "@sd/queue";
import { sessionRoom } from "./channel";

/**
 * Publishes live progress from any process (gateway, provider worker, aggregator). Each event is
 * published once to Redis and every gateway delivers it only to its own sockets in the room, so a
 * client gets it exactly once however many gateways run.
 */
export class LiveEvents {
  private readonly emitter: Emitter;
  private readonly votesChannel: string;

  constructor(
    private readonly connection: Redis,
    prefix: string,
  ) {
    this.emitter = new Emitter(connection, { key: socketIoKey(prefix) });
    this.votesChannel = decisionVotesChannel(prefix);
  }

  /**
   * One model's row of a decision: pending, then its vote or its error (wire event "decision:vote"),
   * also on the votes channel for the gateway streaming it to an HTTP client (see VoteFeed).
   */
  modelProgress(event: VoteEvent): void {
    this.emitter.to(requestRoom(event.request_id)).emit(SOCKET_EVENTS.vote, event);
    this.connection.publish(this.votesChannel, encodeVote(event)).catch(() => undefined);
  }

  /** The decision's outcome, to the request's room. */
  final(event: FinalEvent): void {
    this.emitter.to(requestRoom(event.request_id)).emit(SOCKET_EVENTS.final, event);
  }

  /** A signed-in user's decision was stored: their open dashboards reload. */
  historyDecision(userId: string, event: HistoryDecisionEvent): void {
    this.emitter.to(userRoom(userId)).emit(SOCKET_EVENTS.historyDecision, event);
  }

  /** One of the user's batches moved on (the runner throttles these). */
  batchProgress(userId: string, event: BatchProgressEvent): void {
    this.emitter.to(userRoom(userId)).emit(SOCKET_EVENTS.batchProgress, event);
  }

  /**
   * A sign-in session ended (sign-out, a reused refresh token): every socket that watched with one
   * of its tokens is disconnected, on whichever gateway it is, so none keeps receiving the user's
   * history or the admin figures until its token would have expired.
   */
  endSession(sessionId: string): void {
    this.emitter.in(sessionRoom(sessionId)).disconnectSockets(true);
  }
}

/** `<request id>\n<event JSON>`: a gateway that streams no such request drops it without parsing. */
function encodeVote(event: VoteEvent): string {
  return `${event.request_id}\n${JSON.stringify(event)}`;
}
