export * from "./channel";
export * from "./progress";
export * from "./live-events";
export * from "./live-socket";
export * from "./expiry-clock";
export * from "./admin-room";
export * from "./vote-feed";
