import type { Emulator } from "@sd/provider-emulator";
import { drillIndex, type DrillOutcome } from "./drill-decisions";

/** Resolves when the emulator has received `count` calls for the drill `tag` (any model). */
export function callsReceived(emulator: Emulator, tag: string, count: number, timeoutMs: number): Promise<void> {
  let seen = 0;
  // The predicate sees each call once (the logged ones, then each new one), so a counter works.
  return emulator.waitForCall((call) => call.prompt_text.includes(tag) && ++seen >= count, timeoutMs).then(() => undefined);
}

/**
 * Resolves when some model has been asked about each of the drill's decisions (`answers[i]` is
 * decision i's answer): the gateway accepted them all (they are queued in Redis) and their votes
 * are under way. If that does not happen in time, the error names the decisions never asked and
 * what their clients got.
 */
export async function decisionsAsked(emulator: Emulator, tag: string, answers: readonly Promise<DrillOutcome>[], timeoutMs: number): Promise<void> {
  if (answers.length === 0) return;
  const waiting = new Set(answers.keys());
  const answered = new Map<number, DrillOutcome>();
  for (const [index, answer] of answers.entries()) void answer.then((outcome) => answered.set(index, outcome));
  try {
    await emulator.waitForCall((call) => {
      const index = drillIndex(tag, call.prompt_text);
      if (index !== null) waiting.delete(index);
      return waiting.size === 0;
    }, timeoutMs);
  } catch (error) {
    const missing = [...waiting].map((index) => {
      const outcome = answered.get(index);
      return outcome ? `#${index}: ${outcome.status ?? outcome.error} ${outcome.detail ?? ""}`.trim() : `#${index}: no answer yet`;
    });
    throw new Error(`${(error as Error).message}: ${waiting.size} decisions of ${tag} never reached a model (${missing.slice(0, 10).join("; ")})`, { cause: error });
  }
}
