export * from "./lifecycle";
export * from "./health-server";
export * from "./store";
export * from "./simulation";
