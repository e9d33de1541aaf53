/**
 * What a forked child process needs, apart from the index: a child that imported the index would
 * also load the store's and the emulator's modules, which it never uses, on every (re)start.
 */
export { envOrExit } from "./lifecycle";
export { runSupervisedChild } from "./supervised-child";
export { providerConfigsFromParent } from "./provider-handoff";
