import { z } from "zod";

/**
 * The direct baseline's one endpoint: the same body as the product's public decision endpoint
 * (parsed by the same DecisionRequestSchema), answered once the three SDK calls are done.
 */
export const BASELINE_PATH = "/baseline/decide";

/** The baseline process logs this line (JSON, with `url`) once it listens. */
export const BASELINE_LISTENING = "baseline listening";

/** What the baseline answers: each model's category, in the order of PROVIDERS. */
export const BaselineResponseSchema = z.object({ categories: z.array(z.string()) });
export type BaselineResponse = z.infer<typeof BaselineResponseSchema>;
