import { ADMIN_SOCKET_EVENTS, ThroughputEventSchema, type ThroughputEvent } from "@sd/contracts";
import { useState } from "react";
import { useWatchedRoom } from "../live/useWatchedRoom";
import { addSample } from "./format";

export interface AdminThroughput {
  /** The server confirmed this connection in the admin room. */
  watching: boolean;
  /** The last samples, oldest first (one a second). */
  samples: ThroughputEvent[];
}

/**
 * The admin room's live throughput while an admin is on the page; keeps the last two minutes of
 * samples, and calls `onDecisionsFinished` for each sample in which decisions finished.
 */
export function useAdminThroughput(userId: string | null, accessToken: string | null, onDecisionsFinished: () => void): AdminThroughput {
  const [samples, setSamples] = useState<ThroughputEvent[]>([]);
  const watching = useWatchedRoom({
    userId,
    accessToken,
    watchEvent: ADMIN_SOCKET_EVENTS.watch,
    event: ADMIN_SOCKET_EVENTS.throughput,
    schema: ThroughputEventSchema,
    onEvent: (event) => {
      setSamples((previous) => addSample(previous, event));
      if (event.decisions_per_second > 0) onDecisionsFinished();
    },
    onClose: () => setSamples([]),
    label: "Live throughput",
  });
  return { watching, samples };
}
