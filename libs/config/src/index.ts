export * from "./load";
export * from "./schemas";
export * from "./providers";
export * from "./prices";
export * from "./public-url";
export * from "./secrets";
