import { afterAll } from "vitest";
import { removeLeftovers } from "./leftovers";

// A setup file (vitest.config.ts): registered before the test file's own hooks, so it runs after
// them (vitest runs "after" hooks in reverse order), once the file has stopped its deployments.
afterAll(() => removeLeftovers());
