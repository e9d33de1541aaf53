import type { Server } from "socket.io";
import { ADMIN_ROOM, ADMIN_SOCKET_EVENTS, type ThroughputEvent } from "@sd/contracts";

/** How long after a whole second a tick reads: the writes of that second's last moments have landed. */
const TICK_OFFSET_MS = 20;

/** Reads the current throughput figures (from Redis, so every gateway reads the same numbers). */
export type ThroughputSource = () => Promise<ThroughputEvent>;

/**
 * Sends the admin room its throughput figures every interval. Each gateway reads the figures and
 * emits them to its own sockets in the room only (`io.local`): with several gateways every admin
 * client gets each second's event exactly once, from the gateway it is connected to. A gateway
 * without an admin socket reads nothing. A slow read skips the ticks it overlaps rather than
 * stacking reads up.
 */
export class ThroughputBroadcast {
  private timer: NodeJS.Timeout | null = null;
  private reading = false;

  constructor(
    private readonly io: Server,
    private readonly source: ThroughputSource,
    private readonly intervalMs: number,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  start(): void {
    if (this.timer !== null) return;
    this.schedule();
  }

  stop(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  /**
   * Ticks just after each whole interval of the clock rather than every interval from start:
   * "the last second" is then each whole second read once, never skipped by a timer's drift.
   */
  private schedule(): void {
    const delay = this.intervalMs - (Date.now() % this.intervalMs) + TICK_OFFSET_MS;
    this.timer = setTimeout(() => {
      this.schedule();
      void this.tick();
    }, delay);
    // The broadcast must not keep a stopping process alive.
    this.timer.unref();
  }

  /** Admin sockets connected to this gateway. */
  private localWatchers(): number {
    return this.io.of("/").adapter.rooms.get(ADMIN_ROOM)?.size ?? 0;
  }

  private async tick(): Promise<void> {
    if (this.reading || this.localWatchers() === 0) return;
    this.reading = true;
    try {
      const figures = await this.source();
      this.io.local.to(ADMIN_ROOM).emit(ADMIN_SOCKET_EVENTS.throughput, figures);
    } catch (error) {
      this.onError(error);
    } finally {
      this.reading = false;
    }
  }
}
