import { z } from "zod";

/**
 * The direct baseline's one endpoint: the same body as the product's public decision endpoint
 * (parsed by the same DecisionRequestSchema), answered once the three SDK calls are done.
 */
export const BASELINE_PATH = "/baseline/decide";

/**
 * Early quorum done directly: the same three calls, answered as soon as a majority of them agree
 * (two of three), the others' calls aborted. Its latency is the second-fastest model's as a plain
 * client sees it, which the product's early quorum is compared with.
 */
export const BASELINE_QUORUM_PATH = "/baseline/decide-quorum";

/** The baseline process logs this line (JSON, with `url`) once it listens. */
export const BASELINE_LISTENING = "baseline listening";

/** What the baseline answers: each model's category, in the order of PROVIDERS (the quorum path: in the order they answered, until the quorum). */
export const BaselineResponseSchema = z.object({ categories: z.array(z.string()) });
export type BaselineResponse = z.infer<typeof BaselineResponseSchema>;
