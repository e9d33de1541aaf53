import {
  V1_HEADERS,
  type DecisionHistoryListResponse,
  type V1Accepted,
  type V1DecisionStatus,
  type V1EnsembleRequest,
  type V1EnsembleResponse,
  type V1VoteDetail,
  type V1VoteStatus,
  type VoteEvent,
} from "@sd/contracts";
import { ENDPOINTS, endpointMethod, endpointPath } from "@sd/contracts/endpoints";
import { Batches } from "./batches";
import { SmartDecisionError, TimeoutError } from "./errors";
import { requestIdFor, withLiveVotes } from "./live";
import { pause } from "./pause";
import { Transport } from "./transport";
import { verifyWebhook } from "./webhooks";

export interface SmartDecisionOptions {
  /** An API key from the /settings page (starts with `sd_live_`). Defaults to the SD_API_KEY environment variable. */
  apiKey?: string;
  /** Where the API is served, e.g. `https://decide.example.com`. */
  baseUrl: string;
  /** How long one HTTP request may take, in milliseconds (default 120 000: a decision waits for every model). */
  timeoutMs?: number;
  /** A fetch implementation (default: the global fetch). */
  fetch?: typeof globalThis.fetch;
}

/** A decision to make: the question, at least 2 allowed answers, and up to 3 images as data URLs (each under 10MB). */
export type DecisionInput = Omit<V1EnsembleRequest, "request_id">;

export interface SubmitOptions {
  /** Makes retries safe: the same key and body answer the first decision instead of running a second one. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

export interface DecideOptions extends SubmitOptions {
  /** Called with each model's progress as it happens (`pending`, then `success` or `error`), over Socket.IO. */
  onVote?: (vote: VoteEvent) => void;
}

export interface WaitOptions {
  /** Time between two polls in milliseconds (default 1000). */
  intervalMs?: number;
  /** Give up after this many milliseconds with a TimeoutError (default 300 000). */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** Filters and paging of the key owner's history. Dates are a day (YYYY-MM-DD, a whole UTC day) or an instant; both bounds are inclusive. */
export interface HistoryFilters {
  /** Page size, default 50, at most 200. */
  limit?: number;
  offset?: number;
  /** Decisions that offered this category or decided on it, exactly. */
  category?: string;
  /** A case-insensitive part of the question. */
  question?: string;
  dateFrom?: string | Date;
  dateTo?: string | Date;
  /** true: only decisions with a final decision; false: only those without. */
  hasDecision?: boolean;
}

export type EnsembleResult = V1EnsembleResponse;
/** One model's entry in `vote_details`. */
export type VoteDetail = V1VoteDetail;
/** What became of a model's vote: counted (`success`), failed (`error`), or not awaited because early quorum had decided (`skipped`). */
export type VoteStatus = V1VoteStatus;
export type DecisionStatus = V1DecisionStatus;
export type AcceptedDecision = V1Accepted;
export type HistoryPage = DecisionHistoryListResponse;
export type HistoryDecision = DecisionHistoryListResponse["decisions"][number];
export type { VoteEvent };

const DEFAULT_TIMEOUT_MS = 120_000;

const ENSEMBLE = ENDPOINTS.createEnsembleDecision;
const DECISION_STATUS = ENDPOINTS.getEnsembleDecision;
const HISTORY = ENDPOINTS.listDecisionHistory;

function environmentApiKey(): string | undefined {
  // Browsers have no process: there the key must be passed explicitly.
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  return env?.SD_API_KEY;
}

/**
 * The Smart Decision API client. Answers are checked against the server's own zod schemas, and
 * every error answer becomes a typed error (AuthenticationError, RateLimitError, ApiError, ...).
 *
 * ```ts
 * const client = new SmartDecision({ apiKey: process.env.SD_API_KEY, baseUrl: "https://decide.example.com" });
 * const { ensemble_decision } = await client.decide({ prompt: "Ship on Friday?", valid_responses: ["Yes", "No"] });
 * ```
 */
export class SmartDecision {
  readonly baseUrl: string;
  /** Batches of up to 10,000 decisions sent as one JSONL file: create, get, list, cancel, results, waitForCompletion. */
  readonly batches: Batches;
  /** Checks a webhook delivery's signature and answers its event (the same as the standalone `verifyWebhook`). */
  readonly webhooks = { verify: verifyWebhook };
  private readonly apiKey: string;
  private readonly transport: Transport;

  constructor(options: SmartDecisionOptions) {
    const apiKey = options.apiKey ?? environmentApiKey();
    if (!apiKey) throw new SmartDecisionError("An API key is required: pass apiKey or set the SD_API_KEY environment variable.");
    if (!options.baseUrl) throw new SmartDecisionError("baseUrl is required, e.g. https://decide.example.com");
    this.apiKey = apiKey;
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
    this.transport = new Transport(this.baseUrl, apiKey, options.timeoutMs ?? DEFAULT_TIMEOUT_MS, options.fetch ?? globalThis.fetch.bind(globalThis));
    this.batches = new Batches(this.transport);
  }

  /**
   * Makes a decision and answers it once every model has voted. With `onVote`, each model's
   * progress is reported live as it happens.
   */
  async decide(input: DecisionInput, options: DecideOptions = {}): Promise<EnsembleResult> {
    const { onVote, ...submit } = options;
    const body = await this.ensembleBody(input, submit.idempotencyKey, onVote !== undefined);
    if (!onVote || body.request_id === undefined) return (await this.postEnsemble(body, submit, false)).value;
    return withLiveVotes(this.baseUrl, body.request_id, onVote, () => this.postEnsemble(body, submit, false));
  }

  /**
   * Queues a decision and answers at once with its id (`Prefer: respond-async`, 202): no HTTP request
   * is held while the models vote. Follow it with `waitFor(id)` or `poll(id)`.
   */
  async submit(input: DecisionInput, options: SubmitOptions = {}): Promise<AcceptedDecision> {
    return (await this.postEnsemble(await this.ensembleBody(input, options.idempotencyKey, false), options, true)).value;
  }

  /** A decision's state: `pending` while the models vote, then `complete` with its result. */
  async poll(decisionId: string, options: { signal?: AbortSignal } = {}): Promise<DecisionStatus> {
    const path = endpointPath(DECISION_STATUS, { id: decisionId });
    const { body } = await this.transport.request(endpointMethod(DECISION_STATUS), path, DECISION_STATUS.responses[200].body.schema, { signal: options.signal });
    return body;
  }

  /** Polls a submitted decision until it is complete, and answers its result. */
  async waitFor(decisionId: string, options: WaitOptions = {}): Promise<EnsembleResult> {
    const intervalMs = options.intervalMs ?? 1000;
    const deadline = Date.now() + (options.timeoutMs ?? 300_000);
    for (;;) {
      const status = await this.poll(decisionId, { signal: options.signal });
      if (status.status === "complete") return status.result;
      if (Date.now() + intervalMs > deadline) throw new TimeoutError(`Decision ${decisionId} was still pending when waitFor gave up.`);
      await pause(intervalMs, options.signal);
    }
  }

  /** A page of the key owner's decisions, newest first, and how many match in all (`total`). */
  async history(filters: HistoryFilters = {}, options: { signal?: AbortSignal } = {}): Promise<HistoryPage> {
    const query: Record<string, string | number | boolean | undefined> = {};
    for (const [name, value] of Object.entries(filters) as [keyof HistoryFilters, HistoryFilters[keyof HistoryFilters]][]) {
      query[name] = value instanceof Date ? value.toISOString() : value;
    }
    const path = endpointPath(HISTORY, {}, query);
    const { body } = await this.transport.request(endpointMethod(HISTORY), path, HISTORY.responses[200].body.schema, { signal: options.signal });
    return body;
  }

  /**
   * The body of POST /v1/ensemble. A request_id names the decision's room for live votes; with an
   * Idempotency-Key it is always sent, derived from the key, so a retry's body is the first one's
   * whichever method sends it and whether or not it follows the votes.
   */
  private async ensembleBody(input: DecisionInput, idempotencyKey: string | undefined, live: boolean): Promise<V1EnsembleRequest> {
    if (!live && idempotencyKey === undefined) return input;
    return { ...input, request_id: await requestIdFor(this.apiKey, idempotencyKey) };
  }

  private async postEnsemble<Async extends boolean>(
    body: V1EnsembleRequest,
    { idempotencyKey, signal }: SubmitOptions,
    respondAsync: Async,
  ): Promise<{ value: Async extends true ? AcceptedDecision : EnsembleResult; replayed: boolean }> {
    const headers: Record<string, string> = {};
    if (idempotencyKey !== undefined) headers[V1_HEADERS.idempotencyKey] = idempotencyKey;
    if (respondAsync) headers[V1_HEADERS.prefer] = V1_HEADERS.respondAsync;
    // The 202 answer is the one `Prefer: respond-async` asks for; otherwise the decision itself (200).
    const schema = respondAsync ? ENSEMBLE.responses[202].body.schema : ENSEMBLE.responses[200].body.schema;
    const answer = await this.transport.request(endpointMethod(ENSEMBLE), endpointPath(ENSEMBLE), schema, { body, headers, signal });
    return {
      value: answer.body as Async extends true ? AcceptedDecision : EnsembleResult,
      replayed: answer.headers.get("idempotent-replayed") === "true",
    };
  }
}
