import { randomUUID } from "node:crypto";
import type { Collection } from "../collection";
import { isDuplicateKeyError } from "../errors";
import type { UserDocument } from "./schema";

export type User = Omit<UserDocument, "_id"> & { id: string };

/** What Google tells about the person signing in. */
export interface GoogleProfile {
  subject: string;
  email: string;
  name: string | null;
  avatar_url: string | null;
}

export interface UserRepository {
  findById(id: string): Promise<User | null>;
  findByEmail(email: string): Promise<User | null>;
  /**
   * A completed magic-link sign-in: creates the account on first sign-in (verified, no name),
   * otherwise marks it verified and records the sign-in.
   */
  signInWithEmail(email: string, now?: Date): Promise<User>;
  /**
   * A completed Google sign-in (the caller has checked that Google verified the email): the
   * account already linked to this Google subject, else the account with this email (linked
   * now), else a new account. Name and picture are refreshed from Google.
   */
  signInWithGoogle(profile: GoogleProfile, now?: Date): Promise<User>;
  count(): Promise<number>;
}

const normalise = (email: string) => email.trim().toLowerCase();

function fromDocument({ _id, ...fields }: UserDocument): User {
  return {
    id: _id,
    ...fields,
    name: fields.name ?? null,
    avatar_url: fields.avatar_url ?? null,
    google_sub: fields.google_sub ?? null,
    is_verified: fields.is_verified ?? false,
  };
}

/** Tries `attempt` again when a concurrent sign-in created the same account first (unique email). */
async function retryOnDuplicate<T>(attempt: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      if (!isDuplicateKeyError(error) || tries >= 3) throw error;
    }
  }
}

export function createUserRepository(users: Collection<UserDocument>): UserRepository {
  const byId = async (id: string) => {
    const doc = await users.findOne({ _id: id });
    return doc ? fromDocument(doc) : null;
  };
  const mustFind = async (id: string) => {
    const user = await byId(id);
    if (!user) throw new Error(`user ${id} disappeared while signing in`);
    return user;
  };
  const create = async (doc: Omit<UserDocument, "_id">) => {
    const id = randomUUID();
    await users.insertOne({ _id: id, ...doc });
    return mustFind(id);
  };

  return {
    findById: byId,

    async findByEmail(email) {
      const doc = await users.findOne({ email: normalise(email) });
      return doc ? fromDocument(doc) : null;
    },

    signInWithEmail(email, now = new Date()) {
      const key = normalise(email);
      return retryOnDuplicate(async () => {
        const existing = await users.findOne({ email: key });
        if (!existing) {
          return create({ email: key, name: null, is_verified: true, avatar_url: null, google_sub: null, created_at: now, last_login_at: now });
        }
        await users.updateOne({ _id: existing._id }, { $set: { is_verified: true, last_login_at: now } });
        return mustFind(existing._id);
      });
    },

    signInWithGoogle(profile, now = new Date()) {
      const email = normalise(profile.email);
      return retryOnDuplicate(async () => {
        const existing = (await users.findOne({ google_sub: profile.subject })) ?? (await users.findOne({ email }));
        if (!existing) {
          return create({
            email,
            name: profile.name,
            is_verified: true,
            avatar_url: profile.avatar_url,
            google_sub: profile.subject,
            created_at: now,
            last_login_at: now,
          });
        }
        await users.updateOne(
          { _id: existing._id },
          {
            $set: {
              google_sub: profile.subject,
              is_verified: true,
              last_login_at: now,
              name: profile.name ?? existing.name ?? null,
              avatar_url: profile.avatar_url ?? existing.avatar_url ?? null,
            },
          },
        );
        return mustFind(existing._id);
      });
    },

    count() {
      return users.countDocuments({});
    },
  };
}
