export { waitlistCollection, type WaitlistDocument } from "./schema";
export { createWaitlistRepository, type WaitlistEntry, type WaitlistRepository } from "./repository";
