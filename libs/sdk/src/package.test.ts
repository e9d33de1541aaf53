import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiKeySchema } from "@sd/contracts";
import { useStackWithMail } from "@sd/testing";
import { useEmulator } from "@sd/provider-emulator/testing";
import { SDK_INSTALL, SDK_PACK, SDK_TARBALL } from "../../../web/src/site/code-samples";

/**
 * The package as a customer gets it: `npm pack` (which builds it), checked by publint and
 * arethetypeswrong, installed into a project outside the repository, type-checked strictly under
 * NodeNext and under Bundler resolution, and run as ESM and as CommonJS against the running product.
 */

const run = promisify(execFile);
const SDK = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const REPO = resolve(SDK, "../..");
const bin = (name: string) => join(REPO, "node_modules/.bin", name);
const TIMEOUT = 240_000;

const emulator = useEmulator();
const stack = useStackWithMail(emulator);

const scratch = mkdtempSync(join(tmpdir(), "sd-sdk-package-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let tarball = "";
let project = "";
/** Why the scratch project could not be installed (no registry and no cache, say), when it could not. */
let installFailure: string | undefined;

/** A command's output, or its output and exit code when it fails, for the test's message. */
async function outputOf(file: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<{ ok: boolean; output: string }> {
  try {
    const { stdout, stderr } = await run(file, args, { cwd, env: { ...process.env, ...env, NO_COLOR: "1", FORCE_COLOR: "0" }, maxBuffer: 16 * 1024 * 1024 });
    return { ok: true, output: `${stdout}${stderr}` };
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; code?: number | string; message: string };
    return { ok: false, output: `${failed.stdout ?? ""}${failed.stderr ?? ""}\n(${failed.code ?? failed.message})` };
  }
}

/** What the customer writes: every public type is checked against a real shape, so an `any` fallback fails to compile. */
function program(body: "module" | "commonjs"): string {
  const code = `
const apiKey: string | undefined = process.env.SD_API_KEY;
const baseUrl: string = process.env.SD_BASE_URL ?? "";
const client = new SmartDecision({ apiKey, baseUrl });
const decision: EnsembleResult = await client.decide({ prompt: "Ship it?", valid_responses: ["Yes", "No"] });
const winner: string | null = decision.ensemble_decision;
const statuses: VoteStatus[] = decision.vote_details.map((vote: VoteDetail) => vote.status);
const page: HistoryPage = await client.history({ limit: 5 });
// Types that fell back to \`any\` would accept these, and the unused expectations would fail the check.
// @ts-expect-error valid_responses is required
void (() => client.decide({ prompt: "Ship it?" }));
// @ts-expect-error ensemble_decision is a string or null
void ((n: number) => n)(decision.ensemble_decision);
type IsAny<T> = 0 extends 1 & T ? true : false;
const typed: [IsAny<EnsembleResult>, IsAny<HistoryPage>, IsAny<typeof client.submit>, IsAny<BatchResultLine>, IsAny<WebhookEvent>] = [false, false, false, false, false];
const error: unknown = new RateLimitError(429, "slow down", null, new Headers({ "retry-after": "5" }));

// Batches: typed lines in, typed results out (as they stream), every batch of every page.
const created: BatchCreated = await client.batches.create([{ custom_id: "first", prompt: "Ship it?", valid_responses: ["Yes", "No"] }]);
const batch: Batch = await client.batches.waitForCompletion(created.id, { intervalMs: 200 });
let results = 0;
for await (const line of client.batches.results(batch.id)) {
  const result: BatchResultLine = line;
  if (result.status === "completed" && result.result) results += result.result.vote_details.length > 0 ? 1 : 0;
}
let listed = 0;
for await (const each of client.batches.list({ limit: 1 })) listed += each.status === "completed" ? 1 : 0;
// @ts-expect-error a batch line needs its custom_id
void (() => client.batches.create([{ prompt: "Ship it?", valid_responses: ["Yes", "No"] }]));

// Webhooks: a delivery signed as Standard Webhooks describes (HMAC-SHA256 of "id.timestamp.body"), verified into a typed event.
const secret = \`whsec_\${Buffer.from("0123456789abcdef0123456789abcdef").toString("base64")}\`;
const body = JSON.stringify({ type: "batch.completed", timestamp: new Date().toISOString(), data: batch });
const headers = { "webhook-id": "evt_package", "webhook-timestamp": String(Math.floor(Date.now() / 1000)), "webhook-signature": "" };
headers["webhook-signature"] = \`v1,\${createHmac("sha256", Buffer.from(secret.slice("whsec_".length), "base64")).update(\`\${headers["webhook-id"]}.\${headers["webhook-timestamp"]}.\${body}\`).digest("base64")}\`;
const event: WebhookEvent = verifyWebhook(body, headers, secret);
const eventBatch: string | null = event.type === "batch.completed" ? event.data.id : null;
let tamperedRefused = false;
try {
  client.webhooks.verify(body.replace("completed", "cancelled"), headers, secret);
} catch (refusal) {
  tamperedRefused = refusal instanceof WebhookVerificationError;
}
const batches = { results, listed, sameBatch: eventBatch === batch.id, tamperedRefused, lineErrors: BatchValidationError.name };
console.log(JSON.stringify({ winner, statuses, total: page.total, typed, rateLimited: error instanceof SmartDecisionError, batches }));
`;
  const imports = [
    `import { createHmac } from "node:crypto";`,
    `import { BatchValidationError, RateLimitError, SmartDecision, SmartDecisionError, verifyWebhook, WebhookVerificationError, type Batch, type BatchCreated, type BatchResultLine, type EnsembleResult, type HistoryPage, type VoteDetail, type VoteStatus, type WebhookEvent } from "@smart-decision/sdk";`,
    "",
  ].join("\n");
  if (body === "module") return `${imports}${code}`;
  // CommonJS has no top-level await.
  return `${imports}async function main(): Promise<void> {${code}}\nmain().catch((error: unknown) => {\n  console.error(error);\n  process.exitCode = 1;\n});\n`;
}

beforeAll(async () => {
  const packed = await outputOf("npm", ["pack", "-w", "@smart-decision/sdk", "--pack-destination", scratch], REPO);
  if (!packed.ok) throw new Error(`npm pack failed:\n${packed.output}`);
  const [name] = readdirSync(scratch).filter((file) => file.endsWith(".tgz"));
  if (!name) throw new Error(`npm pack wrote no tarball:\n${packed.output}`);
  tarball = join(scratch, name);

  project = join(scratch, "customer");
  const typesNode = JSON.parse(readFileSync(join(REPO, "node_modules/@types/node/package.json"), "utf8")) as { version: string };
  const typescript = JSON.parse(readFileSync(join(REPO, "node_modules/typescript/package.json"), "utf8")) as { version: string };
  rmSync(project, { recursive: true, force: true });
  await run("mkdir", ["-p", project]);
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "customer", private: true, type: "module" }));
  writeFileSync(join(project, "esm.mts"), program("module"));
  writeFileSync(join(project, "cjs.cts"), program("commonjs"));
  // skipLibCheck as most projects set it (checking zod's declarations costs more than the rest together): a
  // declaration that fails to resolve still shows, as `any` below and in arethetypeswrong's report.
  const strict = { strict: true, target: "ES2022", lib: ["ES2023", "DOM"], types: ["node"], skipLibCheck: true };
  writeFileSync(join(project, "tsconfig.nodenext.json"), JSON.stringify({ compilerOptions: { ...strict, module: "NodeNext", moduleResolution: "NodeNext", outDir: "out" }, files: ["esm.mts", "cjs.cts"] }));
  writeFileSync(join(project, "tsconfig.bundler.json"), JSON.stringify({ compilerOptions: { ...strict, module: "ESNext", moduleResolution: "Bundler", noEmit: true }, files: ["esm.mts", "cjs.cts"] }));
  // The versions the repository installed, so npm finds them in its cache.
  const install = await outputOf(
    "npm",
    ["install", "--prefer-offline", "--no-audit", "--no-fund", tarball, `@types/node@${typesNode.version}`, `typescript@${typescript.version}`],
    project,
  );
  if (!install.ok) installFailure = install.output;
}, TIMEOUT);

describe("the packed @smart-decision/sdk", () => {
  it("holds the built bundles, their declarations, the README and the LICENSE, and nothing else", async () => {
    const { stdout } = await run("tar", ["-tzf", tarball]);
    expect(stdout.trim().split("\n").sort()).toEqual(
      ["LICENSE", "README.md", "dist/index.cjs", "dist/index.d.cts", "dist/index.d.ts", "dist/index.js", "package.json"].map((file) => `package/${file}`),
    );
    const { stdout: declarations } = await run("tar", ["-xzOf", tarball, "package/dist/index.d.ts"]);
    // The shared contracts are inlined: nothing points at the private workspace.
    expect(declarations).not.toMatch(/@sd\//);
    expect(declarations).toContain("declare class SmartDecision");
  });

  it("is the tarball /developers tells developers to pack and install", () => {
    expect(SDK_PACK).toBe("npm pack -w @smart-decision/sdk");
    expect(tarball.endsWith(`/${SDK_TARBALL}`), tarball).toBe(true);
    expect(SDK_INSTALL).toBe(`npm install ./${SDK_TARBALL}`);
  });

  it("passes publint", async (context) => {
    const publint = await outputOf(bin("publint"), ["--strict", tarball], scratch);
    console.log(`publint:\n${publint.output}`);
    if (/not found|ENOENT/.test(publint.output) && !publint.ok) context.skip(`publint cannot run here: ${publint.output}`);
    expect(publint.ok, publint.output).toBe(true);
    expect(publint.output).toContain("All good!");
  }, TIMEOUT);

  it("passes arethetypeswrong for node10, node16 (ESM and CJS) and bundlers", async (context) => {
    const attw = await outputOf(bin("attw"), ["--format", "table-flipped", tarball], scratch);
    console.log(`arethetypeswrong:\n${attw.output}`);
    if (/ENOENT/.test(attw.output) && !attw.ok) context.skip(`arethetypeswrong cannot run here: ${attw.output}`);
    expect(attw.ok, attw.output).toBe(true);
    expect(attw.output).toContain("No problems found");
  }, TIMEOUT);

  it("type-checks a strict program under NodeNext and under Bundler resolution", async (context) => {
    if (installFailure) context.skip(`the scratch project could not be installed: ${installFailure}`);
    const tsc = join(project, "node_modules/typescript/bin/tsc");
    const [bundler, nodeNext] = await Promise.all([
      outputOf(process.execPath, [tsc, "-p", "tsconfig.bundler.json"], project),
      outputOf(process.execPath, [tsc, "-p", "tsconfig.nodenext.json", "--noEmit"], project),
    ]);
    expect(bundler.output, "Bundler").toBe("");
    expect(nodeNext.output, "NodeNext").toBe("");
  }, TIMEOUT);

  it("runs as an ES module and as CommonJS: decide, history, a batch and a webhook verified, with an API key against the product", async (context) => {
    if (installFailure) context.skip(`the scratch project could not be installed: ${installFailure}`);
    const user = await stack.signIn();
    const response = await fetch(`${stack.url}/api/api-keys`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${user.tokens.access_token}` },
      body: JSON.stringify({ name: "packaged SDK" }),
    });
    expect(response.status).toBe(201);
    const key = ApiKeySchema.parse(await response.json());
    const env = { SD_API_KEY: key.keyvalue!, SD_BASE_URL: stack.url };

    // The same sources as the previous test type-checks, compiled as a customer would.
    const emitted = await outputOf(process.execPath, [join(project, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.nodenext.json", "--noCheck"], project);
    expect(emitted.ok, emitted.output).toBe(true);
    for (const file of ["out/esm.mjs", "out/cjs.cjs"]) {
      const ran = await outputOf(process.execPath, [file], project, env);
      expect(ran.ok, `${file}: ${ran.output}`).toBe(true);
      const result = JSON.parse(ran.output.trim().split("\n").at(-1)!) as {
        winner: string | null;
        statuses: string[];
        total: number;
        typed: boolean[];
        rateLimited: boolean;
        batches: { results: number; listed: number; sameBatch: boolean; tamperedRefused: boolean; lineErrors: string };
      };
      expect(["Yes", "No"], file).toContain(result.winner);
      expect(result.batches, file).toEqual({ results: 1, listed: expect.any(Number), sameBatch: true, tamperedRefused: true, lineErrors: "BatchValidationError" });
      expect(result.batches.listed, file).toBeGreaterThanOrEqual(1);
      expect(result.statuses.length, file).toBeGreaterThan(0);
      expect(result.total, file).toBeGreaterThan(0);
      expect(result.rateLimited, file).toBe(true);
    }
  }, TIMEOUT);
});
