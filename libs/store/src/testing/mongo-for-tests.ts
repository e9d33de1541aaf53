import { MongoDBContainer } from "@testcontainers/mongodb";
import { getContainerRuntimeClient } from "testcontainers";

export type MongoForTests = { url: string; stop(): Promise<void> } | { url: null; reason: string };

/** MONGO_URL when set; otherwise a throwaway mongo:7 from testcontainers where a container runtime answers. */
export async function mongoForTests(): Promise<MongoForTests> {
  const fromEnv = process.env.MONGO_URL?.trim();
  if (fromEnv) return { url: fromEnv, stop: async () => undefined };
  try {
    await getContainerRuntimeClient();
  } catch (error) {
    return {
      url: null,
      reason: `MONGO_URL is not set and testcontainers found no container runtime (${(error as Error).message.split("\n")[0]})`,
    };
  }
  const container = await new MongoDBContainer("mongo:7").start();
  return {
    url: `${container.getConnectionString()}?directConnection=true`,
    stop: async () => {
      await container.stop();
    },
  };
}
