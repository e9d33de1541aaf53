/**
 * Redis channel prefix shared by the gateways' Socket.IO adapter and every emitter: they must
 * agree on it for an event published anywhere to reach the sockets of every gateway.
 */
export const socketKey = (prefix: string): string => `${prefix}:socket.io`;
