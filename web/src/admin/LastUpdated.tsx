import { useEffect, useState } from "react";
import { updatedAgo } from "./live-refresh";

/** The current time, again every `everyMs`, so an age on screen keeps counting. */
function useNow(everyMs: number): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

/** 'Last updated: 14:02:11 (12 s ago)' for the open tab's figures; its own component, so only it re-renders every second. */
export function LastUpdated({ at }: { at: number }) {
  const now = useNow(1_000);
  return (
    <p className="text-sm text-slate-600" data-testid="last-updated">
      Last updated:{" "}
      {at > 0 ? (
        <>
          <time dateTime={new Date(at).toISOString()}>{new Date(at).toLocaleTimeString()}</time> ({updatedAgo(at, now)})
        </>
      ) : (
        "—"
      )}
    </p>
  );
}
