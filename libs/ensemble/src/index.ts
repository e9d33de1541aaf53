export * from "./majority-vote";
export * from "./explanation";
