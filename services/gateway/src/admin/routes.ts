import { Router, type RequestHandler } from "express";
import {
  adminPeriodQuery,
  type AcknowledgeDamageResponse,
  type RecentDecisionsResponse,
  type SystemHealth,
  type UsageStats,
  type UsageStatsResponse,
} from "@sd/contracts";
import type { QueueInspector, Redis } from "@sd/queue";
import type { Store } from "@sd/store";
import { parseQuery } from "../http/validate";
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

const usageQuery = adminPeriodQuery("month");
const recentQuery = adminPeriodQuery("day");
const healthQuery = adminPeriodQuery("day");

/**
 * The admin dashboard's endpoints, each behind `requireUser`
 * then `requireAdmin`: GET /admin/usage-stats (period default month), /admin/recent-decisions and
 * /admin/system-health (default day). A bad or repeated period is a 400. POST
 * /admin/storage/acknowledge-damage acknowledges the journal damage the storage check warns of.
 */
export function adminRoutes({ store, redis, queues, providers, requireUser, isAdmin }: AdminDeps): Router {
  const router = Router();
  const admin = requireAdmin(isAdmin);

  router.get("/admin/usage-stats", requireUser, admin, async (req, res) => {
    const { period } = parseQuery(usageQuery, req);
    const stats = await store.decisions.usageStats({ period, now: new Date() });
    res.json({ success: true, stats: { ...stats, active_users: await withAccountNames(store, stats.active_users) } } satisfies UsageStatsResponse);
  });

  router.get("/admin/recent-decisions", requireUser, admin, async (req, res) => {
    const { period } = parseQuery(recentQuery, req);
    const decisions = await store.decisions.recentDecisions({ period, now: new Date() });
    res.json({ success: true, period, decisions } satisfies RecentDecisionsResponse);
  });

  router.get("/admin/system-health", requireUser, admin, async (req, res) => {
    const { period } = parseQuery(healthQuery, req);
    res.json((await measureHealth({ store, redis, queues, providers }, period)) satisfies SystemHealth);
  });

  // Journal damage kept at start: renamed, never deleted (see StorageHealth.acknowledgeDamage).
  router.post("/admin/storage/acknowledge-damage", requireUser, admin, async (_req, res) => {
    res.json({ success: true, acknowledged: await store.storage.acknowledgeDamage() } satisfies AcknowledgeDamageResponse);
  });

  return router;
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
