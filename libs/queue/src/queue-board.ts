import { createBullBoard } from "@bull-board/api";
import { BullMQAdapter } from "@bull-board/api/bullMQAdapter";
import type { IServerAdapter } from "@bull-board/api/typings/app";
import { Queue } from "bullmq";
import type { Redis } from "ioredis";
import { AGGREGATE_QUEUE, voteQueueName } from "@sd/contracts";

export type { IServerAdapter as QueueBoardServer } from "@bull-board/api/typings/app";

export interface QueueBoard {
  close(): Promise<void>;
}

/**
 * Bull Board's view of the pipeline's queues (the aggregate queue and each provider's vote queue),
 * attached to a server adapter the caller mounts and guards (only libs/queue knows BullMQ; the
 * gateway knows HTTP and who may see the board).
 */
export function attachQueueBoard(server: IServerAdapter, connection: Redis, prefix: string, providers: readonly string[]): QueueBoard {
  const queues = [AGGREGATE_QUEUE, ...providers.map(voteQueueName)].map((name) => new Queue(name, { connection, prefix }));
  createBullBoard({
    queues: queues.map((queue) => new BullMQAdapter(queue)),
    serverAdapter: server,
    options: { uiConfig: { boardTitle: "Smart Decision queues" } },
  });
  return {
    async close() {
      await Promise.all(queues.map((queue) => queue.close()));
    },
  };
}
