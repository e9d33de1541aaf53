import type { ProvidersResponse } from "@sd/contracts";
import type { VoteFeed } from "@sd/live";
import type { Store } from "@sd/store";
import type { IdempotencyRecords } from "../api-keys/idempotency";
import type { DecisionService } from "../decision-service";
import { DecisionUseCases } from "./decisions";
import { HistoryUseCases } from "./history";
import { ImageAssetUseCases } from "./image-assets";
import { PresetUseCases } from "./presets";
import { ShareUseCases } from "./shares";
import { HistoryExportUseCases } from "./history-export";
import { ChatCompletionUseCases } from "./chat-completions";
import { McpToolUseCases } from "./mcp-tools";
import { BatchUseCases, type BatchUseCaseDeps } from "./batches";
import { WebhookUseCases, type WebhookDispatcher } from "./webhooks";

export { DomainError, type DomainErrorKind } from "./errors";
export { DecisionUseCases, type ApiDecisionInput, type ApiDecisionOutcome } from "./decisions";
export { toV1EnsembleResponse } from "./v1-answer";
export { HistoryUseCases } from "./history";
export { ImageAssetUseCases, type AssetCaller } from "./image-assets";
export { PresetUseCases, withPreset } from "./presets";
export { ShareUseCases } from "./shares";
export { HistoryExportUseCases } from "./history-export";
export { ChatCompletionUseCases } from "./chat-completions";
export { McpToolUseCases } from "./mcp-tools";
export { BatchUseCases, type BatchStarter, type BatchUseCaseDeps } from "./batches";
export { WebhookUseCases, newWebhookSecret, toWebhookEndpoint, type WebhookDispatcher, type WebhookUseCaseDeps } from "./webhooks";

/** What people do with the product, for every adapter (REST routes, and the ones to come) to call. */
export interface UseCases {
  decisions: DecisionUseCases;
  history: HistoryUseCases;
  imageAssets: ImageAssetUseCases;
  presets: PresetUseCases;
  shares: ShareUseCases;
  historyExport: HistoryExportUseCases;
  chat: ChatCompletionUseCases;
  mcp: McpToolUseCases;
  batches: BatchUseCases;
  webhooks: WebhookUseCases;
}

export interface UseCaseDeps {
  store: Store;
  decisions: DecisionService;
  idempotency: IdempotencyRecords;
  /** Each model's progress, for the adapters that stream it (chat completions, MCP). */
  votes: VoteFeed;
  /** The models a panel is chosen from. */
  providers: ProvidersResponse;
  /** The quota, key usage and runner of batches (/v1/batches). */
  batches: Pick<BatchUseCaseDeps, "quota" | "keyUsage" | "secondsUntilNextMonth" | "runner">;
  /** The webhook delivery queue (test events, resends) and whether webhook URLs may be private. */
  webhooks: { dispatch: WebhookDispatcher; allowPrivateUrls: boolean };
}

export function createUseCases(deps: UseCaseDeps): UseCases {
  const decisions = new DecisionUseCases(deps);
  return {
    decisions,
    chat: new ChatCompletionUseCases({ decisions, votes: deps.votes, presets: deps.store.presets }),
    mcp: new McpToolUseCases({ decisions, providers: deps.providers, votes: deps.votes, presets: deps.store.presets }),
    history: new HistoryUseCases(deps.store, (panel, categories) => deps.decisions.ensembleDefaults.weightsOf(panel, categories)),
    imageAssets: new ImageAssetUseCases(deps.store),
    presets: new PresetUseCases(deps.store.presets, deps.decisions.ensembleDefaults),
    shares: new ShareUseCases(deps.store),
    historyExport: new HistoryExportUseCases(deps.store),
    batches: new BatchUseCases({ store: deps.store, checkEnsemble: (request) => void deps.decisions.ensembleDefaults.resolve(request, true), ...deps.batches }),
    webhooks: new WebhookUseCases({ endpoints: deps.store.webhookEndpoints, deliveries: deps.store.webhookDeliveries, ...deps.webhooks }),
  };
}
