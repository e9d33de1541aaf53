import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { GatewayEnv } from "@sd/config";
import type { ProviderConfig } from "@sd/contracts";
import { createProvider } from "@sd/providers";
import { DecisionFlow, LiveEvents, QueueInspector, createRedis } from "@sd/queue";
import type { Store } from "@sd/store";
import type { Logger } from "@sd/telemetry";
import { createApp } from "./app";
import { createAuth, resolveJwtSecret } from "./auth";
import { createMailer } from "./mail/mailer";
import { DecisionService } from "./decision-service";
import { attachLiveSocket } from "./sockets/live-socket";

export interface Gateway {
  url: string;
  /** Stops accepting connections, then closes queues and Redis. */
  close(): Promise<void>;
}

export interface GatewayProviders {
  /** The models a decision asks (for display: labels, and whether they are simulated). */
  deciders: readonly ProviderConfig[];
  /** The fast model that answers suggestions. */
  suggester: ProviderConfig;
}

export async function startGateway(env: GatewayEnv, store: Store, providers: GatewayProviders, logger: Logger): Promise<Gateway> {
  // First, so a missing production secret stops the start before any connection is opened.
  const jwtSecret = await resolveJwtSecret(env);
  const redis = createRedis(env.REDIS_URL, "gateway");
  const flow = new DecisionFlow(redis, env.QUEUE_PREFIX, env.VOTE_ATTEMPTS);
  await flow.ready();
  const queues = new QueueInspector(redis, env.QUEUE_PREFIX, env.PROVIDERS);
  const decisions = new DecisionService(flow, new LiveEvents(redis, env.QUEUE_PREFIX), redis, env.PROVIDERS, env.DECISION_TIMEOUT_MS);
  const mailer = createMailer(env, logger);
  const auth = createAuth({ env, store, redis, mailer, logger, jwtSecret });
  const app = createApp({
    env,
    logger,
    redis,
    decisions,
    suggester: createProvider(providers.suggester),
    deciders: providers.deciders,
    store,
    mailer,
    auth,
    queues,
    ready: async () => {
      await Promise.all([redis.ping(), store.ping()]);
    },
  });
  const http = createServer(app);
  const live = attachLiveSocket(http, redis, env.QUEUE_PREFIX, env.CORS_ORIGINS);
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(env.PORT, env.HOST, resolve);
  });
  const { port } = http.address() as AddressInfo;
  const url = `http://${env.HOST.includes(":") ? `[${env.HOST}]` : env.HOST}:${port}`;
  logger.info({ url }, "gateway listening");
  return {
    url,
    async close() {
      await live.close();
      await Promise.all([flow.close(), queues.close()]);
      redis.disconnect();
    },
  };
}
