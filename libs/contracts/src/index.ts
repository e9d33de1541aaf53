export * from "./messages";
export * from "./limits";
export * from "./providers";
export * from "./decision";
export * from "./vote";
export * from "./queue";
export * from "./events";
export * from "./stored-decision";
