export * from "./service";
// The documented operations and their examples: the fuzzing and security suites derive their endpoint lists from them.
export { OPERATIONS, type DocumentedBody, type DocumentedOperation } from "./openapi";
export { EXAMPLE_IDS, EXAMPLE_IMAGE } from "./openapi/examples";
