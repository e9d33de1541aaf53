import {
  HISTORY_MESSAGES,
  SHARE_MESSAGES,
  SHARE_TOKEN_PATTERN,
  sharedPagePath,
  toSharedDecision,
  type ShareCreate,
  type ShareCreated,
  type SharedDecisionResponse,
  type ShareStatus,
} from "@sd/contracts";
import type { StoredShare, Store } from "@sd/store";
import { hashToken, randomToken } from "../auth/tokens";
import { DomainError } from "./errors";

const NOT_SHARED: ShareStatus = { shared: false, include_images: null, created_at: null };

function statusOf(share: StoredShare | null): ShareStatus {
  return share ? { shared: true, include_images: share.includeImages, created_at: share.createdAt.toISOString() } : NOT_SHARED;
}

/**
 * Share links: the owner of a decision creates, replaces and revokes its one read-only link
 * (another user's decision is not found, exactly like an unknown id); anyone with the link reads
 * the decision without anything of its owner. The token is 256 random bits, answered once; only
 * its hash is stored, and a revoked or replaced link is gone at the next read.
 */
export class ShareUseCases {
  constructor(
    private readonly store: Store,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async status(userId: string, decisionId: string): Promise<ShareStatus> {
    await this.#owned(userId, decisionId);
    return statusOf(await this.store.decisionShares.findForDecision(decisionId, userId));
  }

  async create(userId: string, decisionId: string, input: ShareCreate): Promise<ShareCreated> {
    await this.#owned(userId, decisionId);
    const token = randomToken();
    const share = await this.store.decisionShares.replace({ decisionId, userId, tokenHash: hashToken(token), includeImages: input.include_images, createdAt: this.clock() });
    return { shared: true, include_images: share.includeImages, created_at: share.createdAt.toISOString(), token, path: sharedPagePath(token) };
  }

  async revoke(userId: string, decisionId: string): Promise<ShareStatus> {
    await this.#owned(userId, decisionId);
    await this.store.decisionShares.revoke(decisionId, userId);
    return NOT_SHARED;
  }

  /** The decision behind a live link, as anyone may see it; not found for any other token. */
  async open(token: string): Promise<SharedDecisionResponse> {
    const notFound = new DomainError("not-found", SHARE_MESSAGES.notFound);
    // Not the shape of a token we issue: refused without a lookup.
    if (!SHARE_TOKEN_PATTERN.test(token)) throw notFound;
    const share = await this.store.decisionShares.findByTokenHash(hashToken(token));
    if (!share) throw notFound;
    // Still the owner's decision (the link never outlives the owner's hold on it).
    const decision = await this.store.decisions.findOwned(share.decisionId, share.userId);
    if (!decision) throw notFound;
    const images = share.includeImages ? await this.store.imageAssets.listForDecision(decision.id, share.userId) : [];
    return {
      success: true,
      decision: toSharedDecision(
        decision,
        images.map((image) => ({ label: image.label, image_type: image.image_type, image_data: image.image_data })),
      ),
    };
  }

  async #owned(userId: string, decisionId: string): Promise<void> {
    if (!(await this.store.decisions.findOwned(decisionId, userId))) throw new DomainError("not-found", HISTORY_MESSAGES.notFound);
  }
}
