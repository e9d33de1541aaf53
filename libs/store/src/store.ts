import { decisionsCollection } from "./decisions/schema";
import { openDecisionRepository, SHARED_STORE_SETTLE_MS, type DecisionRepository } from "./decisions/repository";
import { decisionRollupsCollection } from "./decisions/rollup-schema";
import { applicationsCollection, createApplicationRepository, type ApplicationRepository } from "./applications";
import { createWaitlistRepository, waitlistCollection, type WaitlistRepository } from "./waitlist";
import { createUserRepository, usersCollection, type UserRepository } from "./users";
import { createRefreshTokenRepository, refreshTokensCollection, type RefreshTokenRepository } from "./refresh-tokens";
import { createImageAssetRepository, imageAssetsCollection, type ImageAssetRepository } from "./image-assets";
import { apiKeysCollection, createApiKeyRepository, type ApiKeyRepository } from "./api-keys";
import { createApiUsageRepository, type ApiUsageRepository } from "./api-usage";
import { createDecisionShareRepository, decisionSharesCollection, type DecisionShareRepository } from "./decision-shares";
import { createPresetRepository, presetsCollection, type PresetRepository } from "./presets";
import {
  createWebhookDeliveryRepository,
  createWebhookEndpointRepository,
  webhookDeliveriesCollection,
  webhookEndpointsCollection,
  type WebhookDeliveryRepository,
  type WebhookEndpointRepository,
} from "./webhooks";
import { batchesCollection, batchLinesCollection, createBatchLineRepository, createBatchRepository, type BatchLineRepository, type BatchRepository } from "./batches";
import type { DriverKind, StoreDriver } from "./driver";
import { openEmbeddedDriver } from "./drivers/embedded/open-embedded-driver";
import { openMongoDriver } from "./drivers/mongo/open-mongo-driver";
import type { WriteRoomTiming } from "./drivers/embedded/write-room";
import type { StorageEvents, StorageHealth } from "./storage-health";

export interface Store {
  decisions: DecisionRepository;
  waitlist: WaitlistRepository;
  applications: ApplicationRepository;
  users: UserRepository;
  refreshTokens: RefreshTokenRepository;
  imageAssets: ImageAssetRepository;
  apiKeys: ApiKeyRepository;
  /** Image storage of each user (a free-tier limit). */
  apiUsage: ApiUsageRepository;
  /** Live share links of decisions (by token hash and by decision). */
  decisionShares: DecisionShareRepository;
  /** Users' named ensemble settings (panel presets). */
  presets: PresetRepository;
  /** Batches of API decisions (/v1/batches) and their lines. */
  batches: BatchRepository;
  batchLines: BatchLineRepository;
  /** Users' webhook endpoints and their delivery log. */
  webhookEndpoints: WebhookEndpointRepository;
  webhookDeliveries: WebhookDeliveryRepository;
  /** Rejects when the database cannot be reached (or the store is closed). */
  ping(): Promise<void>;
  /** The embedded store's disk: journal damage kept at start, and whether writes fit (a full disk). */
  readonly storage: StorageHealth;
  /** Finishes pending writes and releases the connection / lock. Safe to call twice. */
  close(): Promise<void>;
  readonly driver: DriverKind;
}

export interface OpenStoreOptions {
  /** MongoDB connection string; when empty the embedded store in `dataDir` is used. */
  mongoUrl?: string | null;
  /** Directory of the embedded store's journals and lock file. */
  dataDir: string;
  /**
   * Where the embedded store reports journal damage found at open and a full disk: attach the
   * listener before opening. Without one, each event is a Node process warning (stderr).
   */
  events?: StorageEvents;
  /** The full-disk probe's pace (tests shorten it). */
  probe?: WriteRoomTiming;
}

export async function openStore(options: OpenStoreOptions): Promise<Store> {
  const driver = options.mongoUrl
    ? await openMongoDriver(options.mongoUrl)
    : await openEmbeddedDriver(options.dataDir, { events: options.events, probe: options.probe });
  try {
    // Opened once: the embedded driver keeps one in-memory copy per open collection.
    const imageAssets = await driver.openCollection(imageAssetsCollection);
    const webhookDeliveries = await driver.openCollection(webhookDeliveriesCollection);
    const repositories = {
      // The embedded store's data dir is locked to this process, so nothing else writes decisions
      // and every day's rollups can be checked at open; MongoDB may have other writers.
      decisions: await openDecisionRepository(await driver.openCollection(decisionsCollection), await driver.openCollection(decisionRollupsCollection), {
        settleMs: driver.kind === "embedded" ? 0 : SHARED_STORE_SETTLE_MS,
      }),
      waitlist: createWaitlistRepository(await driver.openCollection(waitlistCollection)),
      applications: createApplicationRepository(await driver.openCollection(applicationsCollection)),
      users: createUserRepository(await driver.openCollection(usersCollection)),
      refreshTokens: createRefreshTokenRepository(await driver.openCollection(refreshTokensCollection)),
      imageAssets: createImageAssetRepository(imageAssets),
      apiKeys: createApiKeyRepository(await driver.openCollection(apiKeysCollection)),
      apiUsage: createApiUsageRepository(imageAssets),
      decisionShares: createDecisionShareRepository(await driver.openCollection(decisionSharesCollection)),
      presets: createPresetRepository(await driver.openCollection(presetsCollection)),
      batches: createBatchRepository(await driver.openCollection(batchesCollection)),
      batchLines: createBatchLineRepository(await driver.openCollection(batchLinesCollection)),
      webhookEndpoints: createWebhookEndpointRepository(await driver.openCollection(webhookEndpointsCollection), webhookDeliveries),
      webhookDeliveries: createWebhookDeliveryRepository(webhookDeliveries),
    };
    return storeOn(driver, repositories);
  } catch (error) {
    await driver.close().catch(() => undefined);
    throw error;
  }
}

function storeOn(driver: StoreDriver, repositories: Omit<Store, "ping" | "close" | "driver" | "storage">): Store {
  let closing: Promise<void> | null = null;
  return {
    driver: driver.kind,
    ...repositories,
    ping: () => driver.ping(),
    storage: driver.storage,
    // Rollup changes still being written go out first (a lost one would only be rebuilt at the next open).
    close: () => (closing ??= repositories.decisions.flushed().then(() => driver.close())),
  };
}
