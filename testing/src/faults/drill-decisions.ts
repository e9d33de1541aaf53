const PUBLIC = "/api/ensembled-llm-categorical-decision-public";
export const DRILL_CATEGORIES = ["Yes", "No"];

/** The question of decision `index` of a drill: the tag finds it in the emulator's calls and in the store. */
export const drillQuestion = (tag: string, index: number) => `Fault drill ${tag} #${index}: ship it?`;

/** The decision index named in a question (or a prompt that contains it), else null. */
export function drillIndex(tag: string, text: string): number | null {
  const at = text.indexOf(`${tag} #`);
  if (at < 0) return null;
  return Number.parseInt(text.slice(at + tag.length + 2), 10);
}

/** What one client saw: an answer (status and body) or a connection error, and how long it waited. */
export interface DrillOutcome {
  index: number;
  question: string;
  /** null: no HTTP answer (the connection failed or was cut). */
  status: number | null;
  detail: string | null;
  decisionId: string | null;
  error: string | null;
  sentAt: number;
  waitMs: number;
}

async function sendOne(url: string, index: number, question: string, images: readonly string[]): Promise<DrillOutcome> {
  const sentAt = performance.now();
  const outcome = (fields: Pick<DrillOutcome, "status" | "detail" | "decisionId" | "error">): DrillOutcome => ({
    index,
    question,
    sentAt,
    waitMs: performance.now() - sentAt,
    ...fields,
  });
  try {
    const response = await fetch(`${url}${PUBLIC}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ question, categories: DRILL_CATEGORIES, ...(images.length > 0 ? { images } : {}) }),
    });
    const text = await response.text();
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      // Not JSON (a proxy page, a cut body): the status is what counts.
    }
    return outcome({
      status: response.status,
      detail: typeof body.detail === "string" ? body.detail : null,
      decisionId: typeof body.decision_id === "string" ? body.decision_id : null,
      error: null,
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return outcome({ status: null, detail: null, decisionId: null, error: cause?.code ?? cause?.message ?? String(error) });
  }
}

/**
 * Sends decisions `0..count-1` of a drill, all at once (or at most `concurrency` at a time), each
 * with its own question; returns one promise per decision, so a drill can wait for some of them.
 */
export function sendDecisions(
  url: string,
  tag: string,
  count: number,
  options: { concurrency?: number; images?: (index: number) => readonly string[] } = {},
): Promise<DrillOutcome>[] {
  const send = (index: number) => sendOne(url, index, drillQuestion(tag, index), options.images?.(index) ?? []);
  const concurrency = options.concurrency ?? count;
  if (concurrency >= count) return Array.from({ length: count }, (_, index) => send(index));
  // At most `concurrency` at once: each slot starts the next decision when its previous one is answered.
  const resolvers: ((outcome: DrillOutcome) => void)[] = [];
  const answers = Array.from({ length: count }, () => new Promise<DrillOutcome>((resolve) => resolvers.push(resolve)));
  let next = 0;
  const runSlot = async (): Promise<void> => {
    while (next < count) {
      const index = next++;
      resolvers[index]!(await send(index)); // sendOne never rejects: failures are outcomes
    }
  };
  for (let i = 0; i < concurrency; i++) void runSlot();
  return answers;
}

/** Answers by status ("none" for a connection error), e.g. `{ "200": 98, "503": 2 }`. */
export function statusCounts(outcomes: readonly DrillOutcome[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const { status } of outcomes) counts[status ?? "none"] = (counts[status ?? "none"] ?? 0) + 1;
  return counts;
}

export const longestWait = (outcomes: readonly DrillOutcome[]) => Math.round(Math.max(0, ...outcomes.map((o) => o.waitMs)));
