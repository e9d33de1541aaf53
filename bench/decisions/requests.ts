import { BaselineResponseSchema, BASELINE_PATH } from "./baseline-contract";
import type { Answer, LoadClient } from "./http-load";

/** Every decision of the run asks the same kind of question, each one different. */
export const CATEGORIES = ["Approve", "Reject", "Escalate"];
export const question = (phase: string, i: number): string => `Benchmark decision ${phase} ${i}: approve the expense report?`;

/** The anonymous decision endpoint, as the playground calls it. */
export const PUBLIC_DECISION = "/api/ensembled-llm-categorical-decision-public";

export const decideThroughPipeline = (client: LoadClient, phase: string) => (i: number) =>
  client.send("POST", PUBLIC_DECISION, { question: question(phase, i), categories: CATEGORIES });

export const decideDirectly = (client: LoadClient, phase: string) => (i: number) =>
  client.send("POST", BASELINE_PATH, { question: question(phase, i), categories: CATEGORIES });

/** A body cut short for an error message. */
export const shortly = (body: unknown): string => JSON.stringify(body).slice(0, 300);

/** A complete decision of the pipeline: 200 with all three votes. */
export function pipelineAnswered(answer: Answer): string | null {
  const votes = (answer.body as { total_votes?: unknown } | null)?.total_votes;
  return answer.status === 200 && votes === 3 ? null : shortly(answer.body);
}

/** A complete decision of the baseline: 200 with all three categories. */
export function baselineAnswered(answer: Answer): string | null {
  const parsed = BaselineResponseSchema.safeParse(answer.body);
  return answer.status === 200 && parsed.success && parsed.data.categories.length === 3 ? null : shortly(answer.body);
}
