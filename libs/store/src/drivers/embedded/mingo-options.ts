import type { Options } from "mingo/types";

/** Filters and pipelines are data, never code: `$where`, `$function` and `$accumulator` are disabled. */
export const MINGO_OPTIONS: Partial<Options> = { scriptEnabled: false };
