import { socketIoKey } from "@sd/queue";

/**
 * Redis channel prefix shared by the gateways' Socket.IO adapter and every emitter: they must
 * agree on it for an event published anywhere to reach the sockets of every gateway.
 */
export const socketKey = socketIoKey;

/**
 * Room of one sign-in session (its refresh-token family): every socket that watches a room with
 * one of the session's access tokens is in it, so ending the session can disconnect them all.
 */
export const sessionRoom = (sessionId: string): string => `session:${sessionId}`;
