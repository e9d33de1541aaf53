import type { Collection, Filter } from "../collection";
import type { DecisionShareDocument } from "./schema";

/** A live share link as the store keeps it: the token's hash, never the token. */
export interface StoredShare {
  decisionId: string;
  tokenHash: string;
  userId: string;
  includeImages: boolean;
  createdAt: Date;
}

export interface DecisionShareRepository {
  /**
   * Stores the decision's link, replacing (and so revoking) any link it had, in one atomic step. The
   * caller has checked that `userId` owns the decision. Rejects with a duplicate key error for a
   * token hash already stored.
   */
  replace(share: StoredShare): Promise<StoredShare>;
  /** The decision's live link if `userId` owns it; null when it has none and for anyone else alike. */
  findForDecision(decisionId: string, userId: string): Promise<StoredShare | null>;
  /** The live link with this token hash; null when none (never created, replaced or revoked). */
  findByTokenHash(tokenHash: string): Promise<StoredShare | null>;
  /** Deletes the decision's link if `userId` owns it; false when there was none to delete. */
  revoke(decisionId: string, userId: string): Promise<boolean>;
  count(): Promise<number>;
}

function fromDocument(doc: DecisionShareDocument): StoredShare {
  return { decisionId: doc._id, tokenHash: doc.token_hash, userId: doc.user_id, includeImages: doc.include_images, createdAt: doc.created_at };
}

// $eq compares literally: an id taken from a URL can never act as a query operator.
const ownedBy = (decisionId: string, userId: string): Filter => ({ _id: { $eq: decisionId }, user_id: { $eq: assertUserId(userId) } });

/** A link is always one user's: an empty or missing user id must never widen the query. */
function assertUserId(userId: string): string {
  if (typeof userId !== "string" || userId === "") throw new RangeError("userId must be a non-empty string");
  return userId;
}

export function createDecisionShareRepository(shares: Collection<DecisionShareDocument>): DecisionShareRepository {
  return {
    async replace(share) {
      await shares.updateOne(
        ownedBy(share.decisionId, share.userId),
        { $set: { token_hash: share.tokenHash, include_images: share.includeImages, created_at: share.createdAt } },
        { upsert: true },
      );
      return { ...share };
    },

    async findForDecision(decisionId, userId) {
      const doc = await shares.findOne(ownedBy(decisionId, userId));
      return doc ? fromDocument(doc) : null;
    },

    async findByTokenHash(tokenHash) {
      const doc = await shares.findOne({ token_hash: { $eq: tokenHash } });
      return doc ? fromDocument(doc) : null;
    },

    async revoke(decisionId, userId) {
      return (await shares.deleteMany(ownedBy(decisionId, userId))) > 0;
    },

    count() {
      return shares.countDocuments({});
    },
  };
}
