export * from "./redis";
export * from "./vote-policy";
export * from "./decision-flow";
export * from "./image-stash";
export * from "./workers";
export * from "./queue-depth";
export { Job, Worker, UnrecoverableError } from "bullmq";
export type { Redis } from "ioredis";
