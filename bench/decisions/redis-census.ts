import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { createRedis } from "@sd/queue";
import { openRedisMonitor } from "@sd/queue/testing";

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
  const monitor = await openRedisMonitor(redisUrl, onCommand);
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
