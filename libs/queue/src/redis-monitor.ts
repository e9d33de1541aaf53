import { once } from "node:events";
import { connect, type Socket } from "node:net";

/** A command as RESP, for the raw MONITOR connection. */
const resp = (...args: string[]) => `*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join("")}`;

/** `<time> [<db> <source>] "<command>" ...`: MONITOR's line for one command (source is ip:port, unix:path or lua). */
const MONITOR_LINE = /^\+\S+ \[\d+ ([^\]]+)\] "((?:[^"\\]|\\.)*)"/;

/**
 * A MONITOR connection for benchmarks and tests that count what reaches Redis: each command Redis
 * runs is handed to `onCommand` with its name in lower case, its first argument and its source
 * (ip:port of the client, or "lua"). A plain socket, not ioredis: ioredis's monitor mode loses a
 * race on a busy server (a command shown in the same read as MONITOR's OK fails as "Command queue
 * state error"), and the stream is simple: one RESP simple string per command, CR and LF escaped
 * inside. Resolves once Redis has confirmed MONITOR, so nothing sent after that is missed.
 */
export async function openRedisMonitor(redisUrl: string, onCommand: (name: string, firstArg: string | undefined, source: string) => void): Promise<Socket> {
  const url = new URL(redisUrl);
  const socket = connect(Number(url.port || 6379), url.hostname);
  await once(socket, "connect");
  const password = decodeURIComponent(url.password);
  if (password) socket.write(url.username ? resp("AUTH", decodeURIComponent(url.username), password) : resp("AUTH", password));
  socket.write(resp("MONITOR"));
  let pending = "";
  let confirmations = password ? 2 : 1;
  // Decoded as a stream, so a character split across two reads stays whole.
  socket.setEncoding("utf8");
  return new Promise((resolve, reject) => {
    // Kept for the socket's life: an error after MONITOR began (the count is cut short) must not crash the run.
    socket.on("error", reject);
    socket.on("data", (chunk: string) => {
      const lines = (pending + chunk).split("\r\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        if (line.startsWith("-")) {
          socket.destroy();
          reject(new Error(`MONITOR refused: ${line.slice(1)}`));
          return;
        }
        if (confirmations > 0 && line === "+OK") {
          if (--confirmations === 0) resolve(socket);
          continue;
        }
        const match = MONITOR_LINE.exec(line);
        if (!match) continue;
        const firstArg = /^ "((?:[^"\\]|\\.)*)"/.exec(line.slice(match[0].length))?.[1];
        onCommand(match[2]!.toLowerCase(), firstArg, match[1]!);
      }
    });
  });
}

