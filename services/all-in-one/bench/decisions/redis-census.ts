import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { createRedis } from "@sd/queue";

/**
 * Who sends what to Redis, per decision: INFO commandstats counts the commands Lua scripts run as
 * well as those clients send, so it cannot tell round trips from work inside a script. The census
 * watches MONITOR during a short untimed run (MONITOR costs Redis CPU, so never during a timed
 * phase) and keeps only the product's own connections (their local ports, found through /proc),
 * so it is exact even on a Redis shared with other deployments. MONITOR prints a script's commands
 * (source "lua") right after the EVALSHA that ran them, which attributes them to that client.
 */
export interface RedisCensus {
  decisions: number;
  /** Commands the product's processes sent, by name. */
  sent: Map<string, number>;
  /** Commands run inside the scripts they sent, by name. */
  inLua: Map<string, number>;
}

/** Socket inodes a process holds open. */
function socketInodes(pid: number): Set<string> {
  const inodes = new Set<string>();
  try {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      try {
        const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
        if (target.startsWith("socket:[")) inodes.add(target.slice(8, -1));
      } catch {
        // The descriptor closed while we looked.
      }
    }
  } catch {
    // The process is gone, or /proc is not there (not Linux): nothing to attribute.
  }
  return inodes;
}

/** Local ports of the TCP connections `pids` hold to `redisPort` (from /proc/net/tcp and tcp6). */
function connectionPorts(pids: readonly number[], redisPort: number): Set<number> {
  const inodes = new Set(pids.flatMap((pid) => [...socketInodes(pid)]));
  const ports = new Set<number>();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text: string;
    try {
      text = readFileSync(table, "utf8");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const columns = line.trim().split(/\s+/);
      const [local, remote, inode] = [columns[1], columns[2], columns[9]];
      if (!local || !remote || !inode || !inodes.has(inode)) continue;
      if (parseInt(remote.split(":")[1] ?? "", 16) === redisPort) ports.add(parseInt(local.split(":")[1] ?? "", 16));
    }
  }
  return ports;
}

const count = (map: Map<string, number>, name: string) => map.set(name, (map.get(name) ?? 0) + 1);

/** A command as RESP, for the raw MONITOR connection. */
const resp = (...args: string[]) => `*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join("")}`;

/** `<time> [<db> <source>] "<command>" ...`: MONITOR's line for one command (source is ip:port, unix:path or lua). */
const MONITOR_LINE = /^\+\S+ \[\d+ ([^\]]+)\] "((?:[^"\\]|\\.)*)"/;

/**
 * A MONITOR connection of its own, on a plain socket: ioredis's monitor mode loses a race on a
 * busy server (a command shown in the same read as MONITOR's OK fails as "Command queue state
 * error"), and the stream is simple: one RESP simple string per command, CR and LF escaped inside.
 * Resolves once Redis has confirmed MONITOR, so nothing sent after that is missed.
 */
async function openMonitor(redisUrl: string, onCommand: (name: string, firstArg: string | undefined, source: string) => void): Promise<Socket> {
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
    // Kept for the socket's life: an error after MONITOR began (the census is cut short) must not crash the run.
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

/** Runs `run` (which resolves with the number of decisions it made) under MONITOR and counts the product's commands. */
export async function redisCensus(redisUrl: string, productPids: readonly number[], run: () => Promise<number>): Promise<RedisCensus> {
  const redisPort = Number(new URL(redisUrl).port || 6379);
  const census: RedisCensus = { decisions: 0, sent: new Map(), inLua: new Map() };
  const ours = connectionPorts(productPids, redisPort);
  /** Ports already found not to be the product's (other clients of a shared Redis). */
  const others = new Set<number>();
  const marker = `census-end-${randomUUID()}`;
  let lastClientIsOurs = false;
  let markerSeen = (): void => undefined;
  const seenMarker = new Promise<void>((resolve) => (markerSeen = resolve));
  let counting = true;
  const onCommand = (name: string, firstArg: string | undefined, source: string): void => {
    if (!counting) return;
    if (name === "echo" && firstArg === marker) {
      counting = false;
      markerSeen();
      return;
    }
    if (source === "lua") {
      if (lastClientIsOurs) count(census.inLua, name);
      return;
    }
    const port = Number(source.slice(source.lastIndexOf(":") + 1));
    if (!ours.has(port) && !others.has(port)) {
      // A connection opened after the census began: look the product's ports up again, once per port.
      for (const found of connectionPorts(productPids, redisPort)) ours.add(found);
      if (!ours.has(port)) others.add(port);
    }
    lastClientIsOurs = ours.has(port);
    if (lastClientIsOurs) count(census.sent, name);
  };
  const monitor = await openMonitor(redisUrl, onCommand);
  const client = createRedis(redisUrl, "bench-census");
  try {
    census.decisions = await run();
    // MONITOR shows commands in the order Redis ran them: once the marker shows up, everything
    // the product sent during the run has been counted.
    await client.echo(marker);
    await seenMarker;
  } finally {
    monitor.destroy();
    client.disconnect();
  }
  return census;
}
