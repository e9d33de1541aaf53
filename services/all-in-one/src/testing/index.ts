export * from "./env";
export * from "./stack";
export * from "./client";
export * from "./redis-inspect";
export * from "./processes";
export * from "./accounts";
export * from "./history";
export * from "./stack-with-mail";
