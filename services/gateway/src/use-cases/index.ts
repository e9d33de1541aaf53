import type { Store } from "@sd/store";
import type { IdempotencyRecords } from "../api-keys/idempotency";
import type { DecisionService } from "../decision-service";
import { DecisionUseCases } from "./decisions";
import { HistoryUseCases } from "./history";
import { ImageAssetUseCases } from "./image-assets";

export { DomainError, type DomainErrorKind } from "./errors";
export { DecisionUseCases, toV1EnsembleResponse, type ApiDecisionInput, type ApiDecisionOutcome } from "./decisions";
export { HistoryUseCases } from "./history";
export { ImageAssetUseCases, type AssetCaller } from "./image-assets";

/** What people do with the product, for every adapter (REST routes, and the ones to come) to call. */
export interface UseCases {
  decisions: DecisionUseCases;
  history: HistoryUseCases;
  imageAssets: ImageAssetUseCases;
}

export function createUseCases(deps: { store: Store; decisions: DecisionService; idempotency: IdempotencyRecords }): UseCases {
  return {
    decisions: new DecisionUseCases(deps),
    history: new HistoryUseCases(deps.store),
    imageAssets: new ImageAssetUseCases(deps.store),
  };
}
