import type { RequestHandler, Router } from "express";
import type { UsageStats } from "@sd/contracts";
import { ENDPOINTS } from "@sd/contracts/endpoints";
import type { QueueInspector, Redis } from "@sd/queue";
import type { Store } from "@sd/store";
import { EndpointRouter } from "../http/endpoint-router";
import { requireAdmin } from "./require-admin";
import { measureHealth } from "./system-health";

export interface AdminDeps {
  store: Store;
  redis: Redis;
  queues: QueueInspector;
  providers: readonly string[];
  requireUser: RequestHandler;
  isAdmin: (email: string) => boolean;
}

/**
 * The admin dashboard's endpoints, each behind the sign-in and then the admin check; a bad or
 * repeated period is a 400. Acknowledging journal damage renames the kept files, never deletes them.
 */
export function adminRoutes({ store, redis, queues, providers, requireUser, isAdmin }: AdminDeps): Router {
  const admin = [requireAdmin(isAdmin)];
  return new EndpointRouter("/api", { bearer: requireUser })
    .mount(ENDPOINTS.adminUsageStats, {
      after: admin,
      handler: async ({ query }) => {
        const stats = await store.decisions.usageStats({ period: query.period, now: new Date() });
        return { status: 200, body: { success: true as const, stats: { ...stats, active_users: await withAccountNames(store, stats.active_users) } } };
      },
    })
    .mount(ENDPOINTS.adminRecentDecisions, {
      after: admin,
      handler: async ({ query }) => ({
        status: 200,
        body: { success: true as const, period: query.period, decisions: await store.decisions.recentDecisions({ period: query.period, now: new Date() }) },
      }),
    })
    .mount(ENDPOINTS.adminSystemHealth, {
      after: admin,
      handler: async ({ query }) => ({ status: 200, body: await measureHealth({ store, redis, queues, providers }, query.period) }),
    })
    .mount(ENDPOINTS.adminAcknowledgeStorageDamage, {
      after: admin,
      handler: async () => ({ status: 200, body: { success: true as const, acknowledged: await store.storage.acknowledgeDamage() } }),
    }).router;
}

/**
 * An active user is shown by their account's name when they set one; the store's statistic
 * already falls back to the part of their email before "@". At most 20 lookups by id.
 */
async function withAccountNames(store: Store, users: UsageStats["active_users"]): Promise<UsageStats["active_users"]> {
  return Promise.all(
    users.map(async (user) => {
      if (!user.is_authenticated) return user;
      const name = (await store.users.findById(user.user_id))?.name?.trim();
      return name ? { ...user, display_name: name } : user;
    }),
  );
}
