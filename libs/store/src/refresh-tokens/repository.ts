import type { Collection } from "../collection";
import type { RefreshTokenDocument } from "./schema";

export type RefreshToken = Omit<RefreshTokenDocument, "_id"> & { hash: string };

export interface RefreshTokenRepository {
  insert(token: Omit<RefreshToken, "rotated_at" | "revoked_at">): Promise<void>;
  findByHash(hash: string): Promise<RefreshToken | null>;
  /**
   * Marks a usable token (not rotated, not revoked, not expired at `now`) as rotated, atomically:
   * of two concurrent calls for one token only one gets true. False for anything else.
   */
  rotate(hash: string, now?: Date): Promise<boolean>;
  /** Revokes one token (rotated or not); false when it is unknown or was already revoked. */
  revoke(hash: string, now?: Date): Promise<boolean>;
  /** Revokes every token of a session not revoked yet; resolves to how many it revoked. */
  revokeFamily(familyId: string, now?: Date): Promise<number>;
  /** True once any token of the session was revoked (the session is over). */
  isFamilyRevoked(familyId: string): Promise<boolean>;
}

function fromDocument({ _id, ...fields }: RefreshTokenDocument): RefreshToken {
  return { hash: _id, ...fields, rotated_at: fields.rotated_at ?? null, revoked_at: fields.revoked_at ?? null };
}

export function createRefreshTokenRepository(tokens: Collection<RefreshTokenDocument>): RefreshTokenRepository {
  return {
    async insert({ hash, ...fields }) {
      await tokens.insertOne({ _id: hash, ...fields, rotated_at: null, revoked_at: null });
    },

    async findByHash(hash) {
      const doc = await tokens.findOne({ _id: hash });
      return doc ? fromDocument(doc) : null;
    },

    async rotate(hash, now = new Date()) {
      const result = await tokens.updateOne(
        { _id: hash, rotated_at: null, revoked_at: null, expires_at: { $gt: now } },
        { $set: { rotated_at: now } },
      );
      return result.modifiedCount === 1;
    },

    async revoke(hash, now = new Date()) {
      const result = await tokens.updateOne({ _id: hash, revoked_at: null }, { $set: { revoked_at: now } });
      return result.modifiedCount === 1;
    },

    async revokeFamily(familyId, now = new Date()) {
      // The Collection interface updates one document at a time; a session holds few tokens.
      const open = await tokens.find({ family_id: familyId, revoked_at: null }, { projection: { _id: 1 } });
      let revoked = 0;
      for (const { _id } of open) {
        const result = await tokens.updateOne({ _id, revoked_at: null }, { $set: { revoked_at: now } });
        revoked += result.modifiedCount;
      }
      return revoked;
    },

    async isFamilyRevoked(familyId) {
      return (await tokens.countDocuments({ family_id: familyId, revoked_at: { $ne: null } })) > 0;
    },
  };
}
