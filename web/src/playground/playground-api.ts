import {
  DEFAULT_PROVIDERS,
  ProvidersResponseSchema,
  SuggestionResponseSchema,
  type DecisionResponse,
  type Suggestion,
} from "@sd/contracts";
import type { AuthorizationSource } from "../api/authorized";
import { apiRequest } from "../api/client";
import { postDecision } from "../auth/decision-request";
import type { ModelInfo } from "./decision-run";

/** The playground's three rows until GET /api/providers answers (or when it cannot). */
export const DEFAULT_MODELS: readonly ModelInfo[] = Object.entries(DEFAULT_PROVIDERS).map(([id, p]) => ({
  id,
  label: p.label,
  model: p.model,
  simulated: false,
}));

/** GET /api/providers: the models a decision asks, in row order. */
export async function fetchModels(): Promise<ModelInfo[]> {
  const { providers } = await apiRequest("/api/providers", { schema: ProvidersResponseSchema });
  return providers;
}

/** The providers as TanStack Query holds them: one cache entry for every page that labels models (they change only with a restart). */
export const providersQuery = { queryKey: ["providers"], queryFn: fetchModels, staleTime: Infinity } as const;

export interface DecisionRequestBody {
  question: string;
  categories: readonly string[];
  /** Data URLs; left out of the body when there are none. */
  images: readonly string[];
  request_id: string;
}

/**
 * POSTs the question: to the authenticated endpoint when signed in (refreshing once, then falling
 * back to the public one), else to the public one. A 2xx body that is not a decision throws
 * InvalidResponseError (the client's); `images` is left out of the body when there are none.
 */
export function requestDecision({ images, ...rest }: DecisionRequestBody, session: AuthorizationSource): Promise<DecisionResponse> {
  return postDecision(images.length > 0 ? { ...rest, images } : rest, session);
}

export interface SuggestionRequestBody {
  question: string;
  images: readonly string[];
  existing_choices: readonly string[];
}

/** POST /api/smart-suggestion-public: AI-suggested choices with their confidence. */
export async function requestSuggestions(body: SuggestionRequestBody): Promise<Suggestion[]> {
  const { suggestions } = await apiRequest("/api/smart-suggestion-public", { method: "POST", body, schema: SuggestionResponseSchema });
  return suggestions;
}
