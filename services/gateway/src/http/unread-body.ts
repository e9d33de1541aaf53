import type { IncomingMessage, ServerResponse } from "node:http";

/** Past this, a body a refusal left unread is not read off: the connection is closed after the answer instead. */
const READ_OFF_UNREAD_BYTES = 64 * 1024;

/**
 * Called as an error is answered: when the request's body was not (wholly) read and is large or
 * of unknown length, the connection is closed after the answer, so the server does not read off
 * megabytes it has already refused (Node reads an unread body off to keep the connection).
 */
export function closeIfBodyUnread(req: IncomingMessage, res: ServerResponse): void {
  if (req.complete || res.headersSent) return;
  const length = req.headers["content-length"];
  const large = length === undefined ? req.headers["transfer-encoding"] !== undefined : Number(length) > READ_OFF_UNREAD_BYTES;
  if (large) res.setHeader("Connection", "close");
}
