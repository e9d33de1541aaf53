import { z } from "zod";
import {
  ENSEMBLE_MODE_LABELS,
  ENSEMBLE_MODES,
  SmartDecisionExtensionSchema,
  V1EnsembleResponseSchema,
  type ProvidersResponse,
  type SmartDecisionExtension,
  type V1DecisionStatus,
  type VoteEvent,
} from "@sd/contracts";
import type { VoteFeed } from "@sd/live";
import type { PresetRepository } from "@sd/store";
import { decideAndWait, parseDecisionRequest } from "./api-decision";
import { decisionWithReasons } from "./chat-completions";
import type { ApiDecisionInput, DecisionUseCases } from "./decisions";

/** What an MCP client may send to `decide`: loose here, so the REST API's validation gives its own texts. */
export const DecideInputSchema = z.object({
  question: z.string().describe("The question to decide, up to 4000 characters."),
  categories: z.array(z.string()).describe("The answers the models may give: at least 2, at most 20."),
  mode: z.enum(ENSEMBLE_MODES).optional().describe(`How the votes are combined: ${ENSEMBLE_MODES.join(", ")} (default majority_voting).`),
  panel: z.array(z.string()).optional().describe("Model ids from list_models (default: the default panel)."),
  images: z.array(z.string()).optional().describe("Up to 3 images as data URLs (data:image/...;base64,...)."),
  preset: z.string().optional().describe("The name of one of your panel presets (list_models lists them): its mode and panel apply where this call sets none."),
});
export type DecideInput = z.infer<typeof DecideInputSchema>;

export const DecisionOutputSchema = SmartDecisionExtensionSchema;

export const GetDecisionInputSchema = z.object({ decision_id: z.string().describe("The decision_id a decide call answered.") });
/** V1DecisionStatusSchema as one object: an MCP output schema must be `type: object` at the top (a union is not). */
export const GetDecisionOutputSchema = z.object({
  decision_id: z.string(),
  status: z.enum(["pending", "complete"]),
  result: V1EnsembleResponseSchema.nullable().describe("The decision once complete; null while pending."),
});

export const ModelListOutputSchema = z.object({
  models: z.array(z.object({ id: z.string(), label: z.string(), model: z.string(), simulated: z.boolean(), in_default_panel: z.boolean() })),
  modes: z.array(z.object({ id: z.enum(ENSEMBLE_MODES), label: z.string() })),
  presets: z.array(z.string()).describe("Your saved panel presets, by name (decide's preset)."),
});
export type ModelList = z.infer<typeof ModelListOutputSchema>;

/** The MCP tools' work, for one API key's owner: the same decisions, limits and texts as /v1. */
export class McpToolUseCases {
  constructor(private readonly deps: { decisions: DecisionUseCases; providers: ProvidersResponse; votes: VoteFeed; presets: PresetRepository }) {}

  /** Decides; `onVote` hears each model's settled vote as it arrives (MCP progress); `signal` (the client cancelled) cancels the pending calls. */
  async decide(input: DecideInput, requester: ApiDecisionInput["requester"], onVote?: (event: VoteEvent) => void, signal?: AbortSignal): Promise<SmartDecisionExtension> {
    const request = parseDecisionRequest({
      question: input.question,
      categories: input.categories,
      images: input.images,
      ...(input.mode ? { ensemble_mode: input.mode } : {}),
      ...(input.panel ? { models: input.panel } : {}),
    });
    const { result, stored } = await decideAndWait(this.deps.decisions, this.deps.votes, { request, preset: input.preset, requester, signal }, onVote);
    return decisionWithReasons(result, stored);
  }

  getDecision(decisionId: string, ownerId: string): Promise<V1DecisionStatus> {
    return this.deps.decisions.decisionStatus(decisionId, ownerId);
  }

  async models(userId: string): Promise<ModelList> {
    const { providers, default_panel } = this.deps.providers;
    return {
      models: providers.map(({ id, label, model, simulated }) => ({ id, label, model, simulated, in_default_panel: default_panel.includes(id) })),
      modes: ENSEMBLE_MODES.map((id) => ({ id, label: ENSEMBLE_MODE_LABELS[id] })),
      presets: (await this.deps.presets.listForUser(userId)).map(({ name }) => name),
    };
  }
}

/** A decision in one line, for MCP clients that show only a tool's text. */
export function decisionSummary(decision: Pick<SmartDecisionExtension, "decision_id" | "ensemble_decision" | "consensus_score"> & { vote_details: readonly { llm_name: string; response: string | null; status: string }[] }): string {
  const votes = decision.vote_details.map((vote) => `${vote.llm_name}: ${vote.response ?? vote.status}`).join(", ");
  const verdict = decision.ensemble_decision === null ? "No model gave a valid answer, so there is no decision." : `Decision: ${decision.ensemble_decision}.`;
  return `${verdict} Votes: ${votes}. Consensus ${Math.round(decision.consensus_score * 100)}%. Decision id ${decision.decision_id}.`;
}
