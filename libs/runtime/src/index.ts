export * from "./lifecycle";
export * from "./health-server";
export * from "./store";
export * from "./simulation";
export * from "./child-processes";
export * from "./supervised-child";
export * from "./provider-handoff";
