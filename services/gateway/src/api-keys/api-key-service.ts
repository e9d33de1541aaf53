import { API_KEY_MESSAGES, type ApiKey, type ApiKeyCreate } from "@sd/contracts";
import type { StoredApiKey, Store } from "@sd/store";
import { DomainError } from "../use-cases/errors";
import { generateApiKey, hashApiKey, isWellFormedApiKey, type KeyCipher } from "./key-material";

/**
 * A key as the key endpoints answer it: never its hash or ciphertext. `cost` (US dollars) is what
 * the key's decisions have cost, summed by the store (`DecisionRepository.costByApiKey`).
 */
export function toApiKey(key: StoredApiKey, cost: number): ApiKey {
  return {
    id: key.id,
    name: key.name,
    workspace: key.workspace,
    created_by: key.created_by,
    created_at: key.created_at.toISOString(),
    last_used_at: key.last_used_at?.toISOString() ?? null,
    cost,
    active_status: key.active_status,
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

  /** The user's keys, newest first, with what each has cost (one aggregation for them all). */
  async list(userId: string): Promise<ApiKey[]> {
    const [keys, costs] = await Promise.all([this.store.apiKeys.listForUser(userId), this.store.decisions.costByApiKey(userId)]);
    return keys.map((key) => toApiKey(key, costs.get(key.id) ?? 0));
  }

  async setActive(id: string, userId: string, active: boolean): Promise<ApiKey> {
    const [updated, costs] = await Promise.all([this.store.apiKeys.setActive(id, userId, active), this.store.decisions.costByApiKey(userId)]);
    if (!updated) throw notFound();
    return toApiKey(updated, costs.get(updated.id) ?? 0);
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
