export * from "./logger";
export * from "./metrics";
