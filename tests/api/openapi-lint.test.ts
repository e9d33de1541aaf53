import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { useEmulator } from "@sd/provider-emulator/testing";
import { startStack, type InProcessStack } from "@sd/testing/stack";
import { testEnv } from "@sd/testing/env";

/**
 * The document the gateway serves at /openapi.json passes `redocly lint` with the repository's
 * redocly.yaml (the recommended ruleset) with no error and no warning: a warning fails the test
 * like an error, and every problem is printed.
 */

const ROOT = resolve(import.meta.dirname, "../..");
/** Redocly reads the bundled CLI's own files on start; on a shared, loaded machine that is slow. */
const LINT_TIMEOUT_MS = 120_000;

interface LintProblem {
  ruleId: string;
  severity: "error" | "warn";
  message: string;
  location: { pointer?: string }[];
}

const emulator = useEmulator();
let stack: InProcessStack;
let dir: string;
beforeAll(async () => {
  stack = await startStack(testEnv(emulator.url));
  dir = await mkdtemp(join(tmpdir(), "openapi-lint-"));
});
afterAll(async () => {
  await stack?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

it(
  "redocly lint finds no error and no warning in the served /openapi.json",
  async () => {
    const response = await fetch(`${stack.url}/openapi.json`);
    expect(response.status).toBe(200);
    const file = join(dir, "openapi.json");
    await writeFile(file, await response.text());
    // redocly exits 1 on errors only; the JSON report lists warnings too.
    const { stdout } = await promisify(execFile)("npx", ["--no-install", "redocly", "lint", "--config", join(ROOT, "redocly.yaml"), "--format", "json", "--max-problems", "1000", file], {
      cwd: ROOT,
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
    }).catch((error: { stdout?: string; stderr?: string }) => {
      if (error.stdout?.trim().startsWith("{")) return { stdout: error.stdout };
      throw new Error(`redocly lint did not report: ${error.stderr ?? String(error)}`, { cause: error });
    });
    const report = JSON.parse(stdout) as { totals: { errors: number; warnings: number }; problems: LintProblem[] };
    const problems = report.problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location.map((l) => l.pointer ?? "?").join(", ")}`);
    expect(problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  },
  LINT_TIMEOUT_MS,
);
