import { request } from "node:http";
import type { ServiceProcess } from "../processes";

/**
 * Sends SIGTERM and waits for the exit; a process still running after `graceMs` is killed (so a
 * drain that hangs fails the drill instead of the run). Resolves with the exit code (null: killed).
 */
export async function stopWithin(service: ServiceProcess, graceMs: number): Promise<number | null> {
  const exited = service.stop("SIGTERM");
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), graceMs)));
  const first = await Promise.race([exited, late]);
  clearTimeout(timer);
  if (first === "late") return (await service.stop("SIGKILL")).code;
  return first.code;
}

/**
 * A decision request on a connection of its own (no pooled keep-alive socket): "refused" when the
 * server no longer accepts connections, else its status, or the error that cut it.
 */
export function freshConnectionRequest(url: string, path: string, body: unknown): Promise<string> {
  const target = new URL(path, url);
  const payload = JSON.stringify(body);
  return new Promise((resolve) => {
    const req = request(
      target,
      { method: "POST", agent: false, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(payload) } },
      (res) => {
        res.resume();
        res.on("end", () => resolve(String(res.statusCode)));
        res.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
      },
    );
    req.on("error", (error: NodeJS.ErrnoException) => resolve(error.code === "ECONNREFUSED" ? "refused" : (error.code ?? error.message)));
    req.end(payload);
  });
}
