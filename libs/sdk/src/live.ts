import { SOCKET_EVENTS, VoteEventSchema, type JoinAck, type VoteEvent } from "@sd/contracts";
import { SmartDecisionError } from "./errors";

/** How long to wait for the server to confirm the room join. */
const JOIN_TIMEOUT_MS = 10_000;
/**
 * The final event and the HTTP answer travel separately: after the answer, wait this long at most
 * for the final event, so every vote emitted before it has been delivered.
 */
const FINAL_EVENT_GRACE_MS = 5_000;

/**
 * The request_id of a decision to follow live: a new UUID, or with an Idempotency-Key one derived
 * from it (and the API key, whose idempotency records are its own): a retried request must send the
 * same body, request_id included, to be answered with the first decision.
 */
export async function requestIdFor(apiKey: string, idempotencyKey: string | undefined): Promise<string> {
  if (idempotencyKey === undefined) return globalThis.crypto.randomUUID();
  const seed = new TextEncoder().encode(`request_id\n${apiKey}\n${idempotencyKey}`);
  const digest = new Uint8Array(await globalThis.crypto.subtle.digest("SHA-256", seed));
  // A version 4 / variant 1 layout (RFC 9562) over the digest's first 16 bytes.
  digest[6] = (digest[6]! & 0x0f) | 0x40;
  digest[8] = (digest[8]! & 0x3f) | 0x80;
  const hex = Array.from(digest.subarray(0, 16), (byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/**
 * Runs `post` while following its decision live: connects a Socket.IO client to the API's origin,
 * joins the request's room with `decision:join` (so no vote is missed), calls `onVote` for each
 * model's progress (`pending`, then `success` or `error`), and closes the socket afterwards.
 * socket.io-client is loaded only here, for callers that want live votes.
 */
export async function withLiveVotes<T>(
  baseUrl: string,
  requestId: string,
  onVote: (vote: VoteEvent) => void,
  /** The HTTP call; `replayed` when the answer is an earlier decision's (its events are long gone). */
  post: () => Promise<{ value: T; replayed: boolean }>,
): Promise<T> {
  const { io } = await import("socket.io-client");
  const socket = io(baseUrl, { transports: ["websocket"], forceNew: true, reconnection: false });
  let finished: () => void = () => undefined;
  const final = new Promise<void>((resolve) => (finished = resolve));
  socket.on(SOCKET_EVENTS.vote, (payload: unknown) => {
    const vote = VoteEventSchema.safeParse(payload);
    if (vote.success && vote.data.request_id === requestId) onVote(vote.data);
  });
  socket.on(SOCKET_EVENTS.final, (payload: { request_id?: unknown } | null) => {
    if (payload?.request_id === requestId) finished();
  });
  try {
    let ack: JoinAck;
    try {
      ack = (await socket.timeout(JOIN_TIMEOUT_MS).emitWithAck(SOCKET_EVENTS.join, { request_id: requestId })) as JoinAck;
    } catch (error) {
      throw new SmartDecisionError(`Could not follow the decision live at ${baseUrl}: ${(error as Error).message}`, { cause: error });
    }
    if (!ack.ok) throw new SmartDecisionError(`Could not follow the decision live: ${ack.error}`);
    const { value, replayed } = await post();
    if (!replayed) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([final, new Promise<void>((resolve) => (timer = setTimeout(resolve, FINAL_EVENT_GRACE_MS)))]);
      clearTimeout(timer);
    }
    return value;
  } finally {
    socket.close();
  }
}
