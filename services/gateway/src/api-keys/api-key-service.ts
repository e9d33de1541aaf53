import { API_KEY_MESSAGES, type ApiKey, type ApiKeyCreate } from "@sd/contracts";
import type { ApiKeyMonth, ApiKeyUsage } from "@sd/queue";
import type { ApiKeyChanges, StoredApiKey, Store } from "@sd/store";
import { DomainError } from "../use-cases/errors";
import { generateApiKey, hashApiKey, isWellFormedApiKey, type KeyCipher } from "./key-material";

/** A key that has made no call and cost nothing this month. */
const NO_USE: ApiKeyMonth = { requests: 0, spend_usd: 0 };

/**
 * A key as the key endpoints answer it: never its hash or ciphertext. `cost` (US dollars) is what
 * the key's decisions have cost, summed by the store (`DecisionRepository.costByApiKey`); `month`
 * its calls and spend this calendar month, counted in Redis (`ApiKeyUsage`).
 */
export function toApiKey(key: StoredApiKey, cost: number, month: ApiKeyMonth = NO_USE): ApiKey {
  return {
    id: key.id,
    name: key.name,
    workspace: key.workspace,
    created_by: key.created_by,
    created_at: key.created_at.toISOString(),
    last_used_at: key.last_used_at?.toISOString() ?? null,
    cost,
    active_status: key.active_status,
    spend_this_month_usd: month.spend_usd,
    requests_this_month: month.requests,
    monthly_spend_limit_usd: key.monthly_spend_limit_usd,
  };
}

/** Another user's key and an unknown id get this same answer, so ids cannot be probed. */
const notFound = () => new DomainError("not-found", API_KEY_MESSAGES.notFound);

/**
 * The owner's side of API keys: create (the key is answered once), list, activate or deactivate,
 * delete and reveal, each only on the caller's own keys; and the caller's side: which key, if any,
 * a presented value is. The store keeps the SHA-256 hash and the AES-256-GCM ciphertext only.
 */
export class ApiKeyService {
  constructor(
    private readonly store: Store,
    private readonly cipher: KeyCipher,
    private readonly usage: ApiKeyUsage,
  ) {}

  async create(owner: { userId: string; email: string }, input: ApiKeyCreate, now = new Date()): Promise<ApiKey> {
    const keyvalue = generateApiKey();
    const key_hash = hashApiKey(keyvalue);
    const stored = await this.store.apiKeys.create({
      user_id: owner.userId,
      name: input.name,
      workspace: input.workspace,
      created_by: owner.email,
      created_at: now,
      active_status: true,
      key_hash,
      key_ciphertext: this.cipher.encrypt(keyvalue, key_hash),
    });
    // A new key has made no decision yet.
    return { ...toApiKey(stored, 0), keyvalue };
  }

  /** The user's keys, newest first, with what each has cost (one aggregation for them all) and its month so far. */
  async list(userId: string): Promise<ApiKey[]> {
    return this.withFigures(await this.store.apiKeys.listForUser(userId), userId);
  }

  async setActive(id: string, userId: string, active: boolean): Promise<ApiKey> {
    return this.update(id, userId, { active_status: active });
  }

  /** Sets the key's monthly spend limit (US dollars), or removes it with null; it applies from the key's next decision. */
  async setSpendLimit(id: string, userId: string, limitUsd: number | null): Promise<ApiKey> {
    return this.update(id, userId, { monthly_spend_limit_usd: limitUsd });
  }

  /**
   * Refuses a decision through `key` once its decisions this month have cost its spend limit, before
   * any model is asked. Spend is added as decisions end, so decisions already running when the limit
   * is reached still finish (and count): the limit is passed by at most their cost.
   */
  async assertWithinSpendLimit(key: StoredApiKey, now = new Date()): Promise<void> {
    const limit = key.monthly_spend_limit_usd;
    if (limit === null) return;
    const spent = await this.usage.spendUsd(key.id, now);
    if (spent >= limit) throw new DomainError("spend-limit", API_KEY_MESSAGES.spendLimitReached(limit, spent));
  }

  async delete(id: string, userId: string): Promise<void> {
    if (!(await this.store.apiKeys.deleteOwned(id, userId))) throw notFound();
  }

  async reveal(id: string, userId: string): Promise<string> {
    const key = await this.store.apiKeys.findOwned(id, userId);
    if (!key) throw notFound();
    try {
      return this.cipher.decrypt(key.key_ciphertext, key.key_hash);
    } catch {
      // Encrypted under another API_KEY_ENCRYPTION_KEY (or damaged): the key still works, it just cannot be shown.
      throw new DomainError("conflict", "This API key can no longer be revealed (the server's encryption key changed). Create a new key.");
    }
  }

  private async update(id: string, userId: string, changes: ApiKeyChanges): Promise<ApiKey> {
    const updated = await this.store.apiKeys.updateOwned(id, userId, changes);
    if (!updated) throw notFound();
    const [key] = await this.withFigures([updated], userId);
    return key!;
  }

  /** The keys as answered, with their all-time cost and this month's calls and spend. */
  private async withFigures(keys: readonly StoredApiKey[], userId: string): Promise<ApiKey[]> {
    const [costs, months] = await Promise.all([
      this.store.decisions.costByApiKey(userId),
      this.usage.months(keys.map((key) => key.id)),
    ]);
    return keys.map((key) => toApiKey(key, costs.get(key.id) ?? 0, months.get(key.id)));
  }

  /**
   * The active key a caller presented, or why not: `missing` without a value, `invalid` for a
   * value that is not an active key of ours. Read from the store on every call, with no cache,
   * so a key deactivated or deleted on any replica fails on the very next call everywhere.
   */
  async authenticate(presented: string | undefined): Promise<StoredApiKey | "missing" | "invalid"> {
    const value = presented?.trim();
    if (!value) return "missing";
    if (!isWellFormedApiKey(value)) return "invalid";
    const key = await this.store.apiKeys.findByHash(hashApiKey(value));
    return key && key.active_status ? key : "invalid";
  }
}
