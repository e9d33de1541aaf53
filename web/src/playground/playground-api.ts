import {
  DEFAULT_PROVIDERS,
  ENSEMBLE_LIMITS,
  type DecisionResponse,
  type EnsembleOptions,
  type ProvidersResponse,
  type Suggestion,
} from "@sd/contracts";
import { ENDPOINTS } from "@sd/contracts/endpoints";
import type { AuthorizationSource } from "../api/authorized";
import { callEndpoint } from "../api/endpoint";
import { postDecision, type DecisionRequestInput } from "../auth/decision-request";
import type { ModelInfo } from "./decision-run";
import type { ModelCatalog } from "./ensemble-options";

/** The playground's three rows until GET /api/providers answers (or when it cannot). */
export const DEFAULT_MODELS: readonly ModelInfo[] = Object.entries(DEFAULT_PROVIDERS).map(([id, p]) => ({
  id,
  label: p.label,
  model: p.model,
  simulated: false,
}));

/** What the playground offers until GET /api/providers answers: the three rows, the first judging. */
export const DEFAULT_CATALOG: ModelCatalog = {
  models: DEFAULT_MODELS,
  defaultPanel: DEFAULT_MODELS.map((model) => model.id),
  defaultJudge: DEFAULT_MODELS[0]!.id,
  defaultRounds: ENSEMBLE_LIMITS.defaultRounds,
};

/** GET /api/providers: every model a panel may name, the default panel and the default judge. */
export async function fetchProviders(): Promise<ProvidersResponse> {
  return callEndpoint(ENDPOINTS.listProviders, {});
}

/** The providers as TanStack Query holds them: one cache entry for every page that labels models (they change only with a restart). */
export const providersQuery = { queryKey: ["providers"], queryFn: fetchProviders, staleTime: Infinity } as const;

export interface DecisionRequestBody {
  question: string;
  categories: readonly string[];
  /** Data URLs; left out of the body when there are none. */
  images: readonly string[];
  request_id: string;
  /** Only the options the user changed (see ensembleRequestOptions). */
  ensemble: EnsembleOptions;
}

/**
 * The JSON body of a decision request: the specification's fields (`images` left out when there
 * are none), then the ensemble options the user changed, so with the defaults the body is
 * byte for byte the one sent before ensemble modes existed.
 */
export function decisionRequestBody({ images, ensemble, ...rest }: DecisionRequestBody): DecisionRequestInput {
  return { ...rest, categories: [...rest.categories], ...(images.length > 0 ? { images: [...images] } : {}), ...ensemble };
}

/**
 * POSTs the question: to the authenticated endpoint when signed in (refreshing once, then falling
 * back to the public one), else to the public one. A 2xx body that is not a decision throws
 * InvalidResponseError (the client's).
 */
export function requestDecision(body: DecisionRequestBody, session: AuthorizationSource): Promise<DecisionResponse> {
  return postDecision(decisionRequestBody(body), session);
}

export interface SuggestionRequestBody {
  question: string;
  images: readonly string[];
  existing_choices: readonly string[];
}

/** POST /api/smart-suggestion-public: AI-suggested choices with their confidence. */
export async function requestSuggestions(body: SuggestionRequestBody): Promise<Suggestion[]> {
  // Copies of the readonly lists, as the schema's input type asks; the JSON sent is the same.
  const { suggestions } = await callEndpoint(ENDPOINTS.suggestCategories, { body: { ...body, images: [...body.images], existing_choices: [...body.existing_choices] } });
  return suggestions;
}
