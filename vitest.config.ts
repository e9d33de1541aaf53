import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["libs/*/src/**/*.test.ts", "services/*/src/**/*.test.ts", "web/src/**/*.test.ts", "tests/**/*.test.ts"],
    // After each test file: the data directories and Redis keys of the deployments it started.
    setupFiles: ["testing/src/remove-leftovers.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Integration suites start servers and worker processes: keep the 2-core machine responsive.
    maxWorkers: 2,
  },
});
