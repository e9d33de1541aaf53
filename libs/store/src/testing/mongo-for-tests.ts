import { MongoDBContainer } from "@testcontainers/mongodb";
import { getContainerRuntimeClient } from "testcontainers";

export type MongoForTests = { url: string; stop(): Promise<void> } | { url: null; reason: string };

/**
 * Set (to anything but "" or "0") where a MongoDB server is promised, as in CI's workflow: there a
 * missing server must fail the MongoDB half of the store suites instead of skipping it unnoticed.
 */
export const REQUIRE_MONGO_VARIABLE = "STORE_TESTS_REQUIRE_MONGO";

export interface MongoForTestsOptions {
  env?: NodeJS.ProcessEnv;
  /** Resolves when a container runtime answers (testcontainers' probe unless a test replaces it). */
  containerRuntime?: () => Promise<unknown>;
}

/**
 * MONGO_URL when set; otherwise a throwaway MongoDB 7 from testcontainers where a container runtime
 * answers; otherwise the reason there is none, or, when STORE_TESTS_REQUIRE_MONGO is set, an error.
 */
export async function mongoForTests({ env = process.env, containerRuntime = getContainerRuntimeClient }: MongoForTestsOptions = {}): Promise<MongoForTests> {
  const fromEnv = env.MONGO_URL?.trim();
  if (fromEnv) return { url: fromEnv, stop: async () => undefined };
  try {
    await containerRuntime();
  } catch (error) {
    const reason = `MONGO_URL is not set and testcontainers found no container runtime (${(error as Error).message.split("\n")[0]})`;
    const required = env[REQUIRE_MONGO_VARIABLE]?.trim();
    if (required && required !== "0") {
      throw new Error(`${REQUIRE_MONGO_VARIABLE} is set, so the MongoDB store tests may not be skipped, but ${reason}`, { cause: error });
    }
    return { url: null, reason };
  }
  const container = await new MongoDBContainer("mongo:7.0.26").start();
  return {
    url: `${container.getConnectionString()}?directConnection=true`,
    stop: async () => {
      await container.stop();
    },
  };
}
