import type { Redis } from "ioredis";

type Write = (...args: unknown[]) => boolean;

/**
 * Sends the commands a connection is given during one turn of the event loop with one write to
 * its socket instead of one write each: the socket is corked at the first command and uncorked in
 * the turn's check phase (`setImmediate`), when every I/O callback that was ready has run. The
 * commands, their order and their replies stay exactly as they were; only the system calls are
 * fewer, and Redis reads the batch with one read and answers it with one write.
 *
 * Why: a batch of replies read at once resumes many jobs, and each sends its next command in the
 * same turn (a BullMQ worker's `moveToFinished`, the next fetch, a gateway's enqueue). On this
 * kind of machine (a virtual machine, Redis on loopback) a socket write costs tens of
 * microseconds, and the loopback delivers to Redis inside it. Under the saturation phase of `npm
 * run bench` the all-in-one product made 20 socket writes per decision, Redis 11 reads; coalesced,
 * 7 and 3. The delay is nil in practice: a reply cannot be read before the next turn's poll anyway.
 *
 * It is ioredis's auto-pipelining without the pipeline: that one builds a Pipeline per batch and
 * keeps one batch in flight per connection, which changes how commands fail and are retried
 * across a reconnect; BullMQ's maintainers advise against it. Here nothing but the write changes.
 *
 * ioredis opens a new socket on every reconnect; each one is coalesced from its "connect" on.
 */
export function coalesceWrites(redis: Redis): Redis {
  const coalesced = new WeakSet<object>();
  const coalesce = () => {
    const socket = redis.stream;
    if (!socket || coalesced.has(socket)) return;
    coalesced.add(socket);
    let corked = false;
    const uncork = () => {
      corked = false;
      socket.uncork();
    };
    const write = socket.write as Write;
    socket.write = function (this: typeof socket, ...args: unknown[]): boolean {
      if (!corked) {
        corked = true;
        socket.cork();
        setImmediate(uncork);
      }
      return write.apply(this, args);
    } as typeof socket.write;
  };
  redis.on("connect", coalesce);
  coalesce();
  return redis;
}
