export * from "./load";
export * from "./schemas";
export * from "./providers";
export * from "./prices";
