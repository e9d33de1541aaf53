import { useEffect, useState } from "react";
import { secondsLeft } from "./refusal";

/** Whole seconds until `retryAt`, counted down once a second until it is reached; 0 without a wait. */
export function useSecondsLeft(retryAt: number | null): number {
  const [left, setLeft] = useState(() => secondsLeft(retryAt, Date.now()));
  useEffect(() => {
    const update = () => {
      const next = secondsLeft(retryAt, Date.now());
      setLeft(next);
      return next;
    };
    if (update() === 0) return;
    const timer = setInterval(() => {
      if (update() === 0) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [retryAt]);
  return left;
}
