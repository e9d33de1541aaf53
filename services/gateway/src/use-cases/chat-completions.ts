import { randomUUID } from "node:crypto";
import {
  CHAT_MODEL,
  CHAT_MODELS,
  type ChatCompletion,
  type ChatCompletionChunk,
  type ChatVote,
  type VoteEvent,
  type ChatCompletionRequest,
  type ChatModelList,
  type DecisionRequest,
  type SmartDecisionExtension,
  type StoredDecision,
  type V1EnsembleResponse,
} from "@sd/contracts";
import type { VoteFeed } from "@sd/live";
import type { PresetRepository } from "@sd/store";
import { decideAndWait, parseDecisionRequest } from "./api-decision";
import { answerContent, categorySlot, chatModel, questionOf, type CategorySlot } from "./chat-request";
import type { ApiDecisionInput, DecisionUseCases } from "./decisions";

/** When the model list was first published (OpenAI's `created`, seconds): the ids never change meaning. */
const MODELS_CREATED = 1_767_225_600;

export interface ChatCompletionInput {
  request: ChatCompletionRequest;
  requester: ApiDecisionInput["requester"];
  idempotencyKey?: string;
  /** Fires when the client goes away: the decision's pending calls are cancelled. */
  signal?: AbortSignal;
}

/** A chat completion request as the decision it asks for, with where its answer goes. */
export interface ChatDecision {
  decision: DecisionRequest;
  slot: CategorySlot;
  model: string;
  /** The key owner's panel preset the model id names: its panel and mode apply. */
  preset?: string;
}

/** The OpenAI Chat Completions shape of a decision: the question from the messages, the categories from the JSON schema. */
export class ChatCompletionUseCases {
  constructor(private readonly deps: { decisions: DecisionUseCases; votes: VoteFeed; presets: PresetRepository }) {}

  /** The models every key may name, then one per panel preset of the key's owner (a preset named like a mode is reached through the API's `preset`). */
  async models(userId: string): Promise<ChatModelList> {
    const taken = new Set<string>(CHAT_MODELS.map(({ id }) => id));
    const presets = (await this.deps.presets.listForUser(userId)).map(({ name }) => `${CHAT_MODEL}/${name}`).filter((id) => !taken.has(id));
    const model = (id: string, created: number) => ({ id, object: "model" as const, created, owned_by: "smart-decision" });
    return { object: "list", data: [...CHAT_MODELS.map(({ id }) => model(id, MODELS_CREATED)), ...presets.map((id) => model(id, MODELS_CREATED))] };
  }

  /** Reads the request into a decision, refusing what cannot be one with the REST API's texts. */
  async read(request: ChatCompletionRequest, userId: string): Promise<ChatDecision> {
    const model = await chatModel(request.model, async (name) => (await this.deps.presets.findByName(userId, name)) !== null);
    const slot = categorySlot(request.response_format);
    const { question, images } = questionOf(request.messages);
    const decision = parseDecisionRequest({ question, categories: slot.categories, images, ...(model.mode ? { ensemble_mode: model.mode } : {}) }, (field) =>
      field === "categories" ? "response_format" : "messages",
    );
    return { decision, slot, model: model.id, preset: model.preset ?? undefined };
  }

  /** Decides and answers as a `chat.completion`. */
  async complete({ request, requester, idempotencyKey, signal }: ChatCompletionInput): Promise<ChatCompletion> {
    const { decision, slot, model, preset } = await this.read(request, requester.user.id);
    const { result, stored } = await decideAndWait(this.deps.decisions, this.deps.votes, { request: decision, preset, requester, idempotencyKey, signal });
    return toChatCompletion(result, stored, slot, model);
  }

  /**
   * Decides and streams it as OpenAI's chunks: the role, one chunk per settled vote (in the
   * `smart_decision` field, which plain clients ignore), the answer, the last chunk with the
   * finish reason and the decision, and the usage when `stream_options.include_usage` asks for it.
   * Bad input is refused before the first chunk, so it still gets an error status. A client that
   * aborts the stream (`signal`) cancels the models' pending calls.
   */
  async stream({ request, requester, idempotencyKey, signal }: ChatCompletionInput, send: (chunk: ChatCompletionChunk) => void): Promise<void> {
    const { decision, slot, model, preset } = await this.read(request, requester.user.id);
    const base = { id: `chatcmpl-${randomUUID()}`, object: "chat.completion.chunk" as const, created: Math.floor(Date.now() / 1000), model };
    const chunk = (delta: ChatCompletionChunk["choices"][number]["delta"], extra: Partial<ChatCompletionChunk> = {}, finish: "stop" | null = null): ChatCompletionChunk => ({
      ...base,
      choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
      ...extra,
    });
    send(chunk({ role: "assistant", content: "" }));
    const { result, stored } = await decideAndWait(this.deps.decisions, this.deps.votes, { request: decision, preset, requester, idempotencyKey, signal }, (event) =>
      send(chunk({}, { smart_decision: { decision_id: event.decision_id, vote: voteOf(event) } })),
    );
    const completion = toChatCompletion(result, stored, slot, model);
    const { message } = completion.choices[0]!;
    send(chunk(message.content === null ? { refusal: message.refusal } : { content: message.content }));
    send(chunk({}, { smart_decision: completion.smart_decision }, "stop"));
    if (request.stream_options?.include_usage === true) send({ ...base, choices: [], usage: completion.usage });
  }
}

/** A stored decision as OpenAI's `chat.completion`, with the votes in the `smart_decision` extension. */
export function toChatCompletion(result: V1EnsembleResponse, stored: StoredDecision, slot: CategorySlot, model: string): ChatCompletion {
  const usage = Object.values(stored.token_usage).reduce(
    (sum, tokens) => (tokens ? { prompt: sum.prompt + tokens.input_tokens, completion: sum.completion + tokens.output_tokens } : sum),
    { prompt: 0, completion: 0 },
  );
  const winner = result.ensemble_decision;
  return {
    id: `chatcmpl-${stored.id}`,
    object: "chat.completion",
    created: Math.floor(stored.timestamp.getTime() / 1000),
    model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: winner === null ? null : answerContent(slot, winner),
          refusal: winner === null ? "No model gave a valid answer, so there is no decision." : null,
        },
        finish_reason: "stop",
        logprobs: null,
      },
    ],
    usage: { prompt_tokens: usage.prompt, completion_tokens: usage.completion, total_tokens: usage.prompt + usage.completion },
    smart_decision: decisionWithReasons(result, stored),
  };
}

/** The API's answer with each vote's reason and the decision's cost, as chat completions and MCP give it. */
export function decisionWithReasons(result: V1EnsembleResponse, stored: StoredDecision): SmartDecisionExtension {
  return {
    decision_id: result.decision_id,
    ensemble_decision: result.ensemble_decision,
    vote_details: result.vote_details.map((vote) => ({ ...vote, reason: stored.rationales[vote.llm_name] ?? null })),
    total_votes: result.total_votes,
    consensus_score: result.consensus_score,
    cost_usd: stored.cost_usd,
  };
}

/** A settled vote as a stream chunk carries it. */
function voteOf(event: VoteEvent): ChatVote {
  return {
    llm_name: event.provider,
    round: event.round ?? 1,
    status: event.status === "pending" ? "error" : event.status,
    response: event.response,
    confidence: event.confidence,
    reason: event.rationale,
    latency_ms: event.latency_ms ?? null,
    cost_usd: event.cost_usd ?? null,
  };
}
