import { allInOneEnv, loadEnv } from "@sd/config";
import { envOrExit, runMain } from "@sd/runtime";
import { startAllInOne } from "./start";

const env = envOrExit(() => loadEnv(allInOneEnv));

runMain("smart-decision", env.LOG_LEVEL, async (lifecycle) => {
  const { url } = await startAllInOne(env, process.env, lifecycle);
  if (url) process.stdout.write(`\nSmart Decision is running at ${url}\n\n`);
});
