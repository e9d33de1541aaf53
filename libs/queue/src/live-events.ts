import { Emitter } from "@socket.io/redis-emitter";
import type { Redis } from "ioredis";
import { SOCKET_EVENTS, requestRoom, type FinalEvent, type VoteEvent } from "@sd/contracts";

/** Redis channel prefix shared by the gateways' Socket.IO adapter and every emitter. */
export const socketKey = (prefix: string): string => `${prefix}:socket.io`;

/**
 * Publishes live progress to a request's room from any process. Each event is published once to
 * Redis and every gateway delivers it only to its own sockets, so a client gets it exactly once
 * however many gateways run.
 */
export class LiveEvents {
  private readonly emitter: Emitter;

  constructor(connection: Redis, prefix: string) {
    this.emitter = new Emitter(connection, { key: socketKey(prefix) });
  }

  vote(event: VoteEvent): void {
    this.emitter.to(requestRoom(event.request_id)).emit(SOCKET_EVENTS.vote, event);
  }

  final(event: FinalEvent): void {
    this.emitter.to(requestRoom(event.request_id)).emit(SOCKET_EVENTS.final, event);
  }
}
