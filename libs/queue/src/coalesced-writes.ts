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
 * ioredis opens its socket after the constructor returns, and a new one on every reconnect; each
 * is coalesced from its "connect" on (the few commands ioredis sends while connecting go as they
 * are). A `duplicate()` of a coalesced connection is a new one and is not coalesced: BullMQ's
 * blocking connections and the Socket.IO adapter's pair, which send one command at a time.
 */
export function coalesceWrites(redis: Redis): Redis {
  redis.on("connect", () => {
    const socket = redis.stream;
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
  });
  return redis;
}
