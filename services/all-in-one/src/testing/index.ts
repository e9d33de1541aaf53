export * from "./env";
export * from "./stack";
export * from "./client";
export * from "./processes";
export * from "./accounts";
