import {
  DecisionResponseSchema,
  DEFAULT_PROVIDERS,
  SuggestionResponseSchema,
  type DecisionResponse,
  type ProvidersResponse,
  type Suggestion,
} from "@sd/contracts";
import type { AuthorizationSource } from "../api/authorized";
import { getJson, postJson } from "../api/client";
import { postDecision } from "../auth/decision-request";
import type { ModelInfo } from "./decision-run";
import { InvalidResponseError } from "./decision-errors";

/** The playground's three rows until GET /api/providers answers (or when it cannot). */
export const DEFAULT_MODELS: readonly ModelInfo[] = Object.entries(DEFAULT_PROVIDERS).map(([id, p]) => ({
  id,
  label: p.label,
  model: p.model,
  simulated: false,
}));

export async function fetchModels(): Promise<ModelInfo[]> {
  const body = await getJson<ProvidersResponse>("/api/providers");
  return body.providers;
}

export interface DecisionRequestBody {
  question: string;
  categories: readonly string[];
  /** Data URLs; left out of the body when there are none. */
  images: readonly string[];
  request_id: string;
}

/**
 * POSTs the question: to the authenticated endpoint when signed in (refreshing once, then falling
 * back to the public one), else to the public one. A 2xx body that is not a decision throws InvalidResponseError.
 */
export async function requestDecision({ images, ...rest }: DecisionRequestBody, session: AuthorizationSource): Promise<DecisionResponse> {
  let body: unknown;
  try {
    body = await postDecision(images.length > 0 ? { ...rest, images } : rest, session);
  } catch (error) {
    if (error instanceof SyntaxError) throw new InvalidResponseError();
    throw error;
  }
  const parsed = DecisionResponseSchema.safeParse(body);
  if (!parsed.success) throw new InvalidResponseError();
  return parsed.data;
}

export interface SuggestionRequestBody {
  question: string;
  images: readonly string[];
  existing_choices: readonly string[];
}

export async function requestSuggestions(body: SuggestionRequestBody): Promise<Suggestion[]> {
  const parsed = SuggestionResponseSchema.safeParse(await postJson<unknown>("/api/smart-suggestion-public", body));
  if (!parsed.success) throw new Error("The server returned invalid suggestions.");
  return parsed.data.suggestions;
}
