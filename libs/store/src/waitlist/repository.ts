import type { Collection } from "../collection";
import type { WaitlistDocument } from "./schema";

export interface WaitlistEntry {
  email: string;
  created_at: Date;
  ip: string | null;
}

export interface WaitlistRepository {
  /** Adds the email once; returns false when it was already on the list (nothing changes then). */
  join(email: string, ip: string | null): Promise<boolean>;
  find(email: string): Promise<WaitlistEntry | null>;
  count(): Promise<number>;
}

const key = (email: string) => email.trim().toLowerCase();

export function createWaitlistRepository(waitlist: Collection<WaitlistDocument>): WaitlistRepository {
  return {
    async join(email, ip) {
      const result = await waitlist.updateOne(
        { _id: key(email) },
        { $setOnInsert: { email: email.trim(), created_at: new Date(), ip } },
        { upsert: true },
      );
      return result.upsertedId !== null;
    },
    async find(email) {
      const doc = await waitlist.findOne({ _id: key(email) });
      return doc ? { email: doc.email, created_at: doc.created_at, ip: doc.ip ?? null } : null;
    },
    count() {
      return waitlist.countDocuments({});
    },
  };
}
