// What several benches share: settings from the environment, seeded data, timing and load, tables, temp dirs and CPU metering.
export * from "./env";
export * from "./random";
export * from "./table";
export * from "./temp-dir";
export * from "./timing";
export * from "./usage";
