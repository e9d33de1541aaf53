/**
 * Room of one sign-in session (its refresh-token family): every socket that watches a room with
 * one of the session's access tokens is in it, so ending the session can disconnect them all.
 */
export const sessionRoom = (sessionId: string): string => `session:${sessionId}`;
