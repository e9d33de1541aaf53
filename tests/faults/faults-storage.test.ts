import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { readdir, readFile, rm, stat, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES, SystemHealthSchema } from "@sd/contracts";
import { useEmulator } from "@sd/provider-emulator/testing";
import { testEnv } from "@sd/testing/env";
import { callApi, type ApiAnswer } from "@sd/testing/history";
import { ServiceProcess, type LogLine } from "@sd/testing/processes";
import { signInByMail } from "@sd/testing/sign-in";
import { SmtpCapture } from "@sd/testing/smtp-capture";
import { startStack, type InProcessStack } from "@sd/testing/stack";

/**
 * Issue 27, storage faults on a real deployment: a journal damaged while the process was stopped
 * is never lost silently (an error log line, the bytes kept beside the journal, /ready and admin
 * health "degraded" until an admin acknowledges it), and a full disk is told at once (507, /ready
 * 503 with the reason) and recovered from without a restart.
 */

const PUBLIC = "/api/ensembled-llm-categorical-decision-public";
const ADMIN_EMAIL = "admin@example.com";
const emulator = useEmulator();

const decide = (url: string, question = "Which language should we use?", categories = ["TypeScript", "Go"]) =>
  callApi(url, PUBLIC, null, { body: { question, categories } });

/** Every file and directory under `dir` with its permission bits, as `path: mode` in octal. */
async function modesUnder(dir: string): Promise<Record<string, string>> {
  const modes: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    modes[path.slice(dir.length + 1)] = ((await stat(path)).mode & 0o777).toString(8);
  }
  return modes;
}

/** Polls `probe` until `done` says so, within `timeoutMs`; the last answer otherwise. */
async function pollUntil(probe: () => Promise<ApiAnswer>, done: (answer: ApiAnswer) => boolean, timeoutMs: number): Promise<ApiAnswer> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const answer = await probe();
    if (done(answer) || performance.now() > deadline) return answer;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("a journal damaged while the process was stopped", () => {
  let smtp: SmtpCapture;
  const running: ServiceProcess[] = [];
  beforeAll(async () => {
    smtp = await SmtpCapture.start();
  });
  afterAll(async () => {
    await Promise.all(running.map((service) => service.stop()));
    await smtp.close();
  });

  it("(its files all private) is logged at error level with file, line and bytes, kept in <journal>.damaged, and makes /ready and admin health degraded until acknowledged", async () => {
    const env = testEnv(emulator.url, { SMTP_URL: smtp.url, ADMIN_EMAILS: ADMIN_EMAIL });
    const journal = join(env.DATA_DIR!, "decisions.journal.jsonl");

    const first = ServiceProcess.start("all-in-one", env);
    running.push(first);
    const firstUrl = await first.gatewayUrl();
    expect((await decide(firstUrl)).status).toBe(200);
    // Questions, e-mail addresses, token hashes: whatever the product keeps under DATA_DIR is the owner's only.
    await signInByMail(firstUrl, smtp, ADMIN_EMAIL);
    expect(await first.stop()).toEqual({ code: 0, signal: null });
    const modes = await modesUnder(env.DATA_DIR!);
    expect(Object.keys(modes)).toEqual(expect.arrayContaining(["decisions.journal.jsonl", "users.journal.jsonl", "refresh_tokens.journal.jsonl"]));
    for (const [path, mode] of Object.entries(modes)) expect(`${path}: ${mode}`).toBe(`${path}: ${path.endsWith(".apart") ? "700" : "600"}`);

    // The case: the last 5 bytes of the journal cut after a clean stop.
    const whole = await readFile(journal);
    await truncate(journal, whole.length - 5);
    const lastLine = whole.subarray(0, -1).lastIndexOf(0x0a) + 1;
    const dropped = whole.subarray(lastLine, whole.length - 5);
    const line = whole.subarray(0, lastLine).filter((byte) => byte === 0x0a).length + 1;

    const second = ServiceProcess.start("all-in-one", env);
    running.push(second);
    const url = await second.gatewayUrl();
    // Logged while the store opened, before the gateway listened.
    const logged = second.lines.find((entry: LogLine) => entry.level === 50 && entry.journal === journal);
    expect(logged).toMatchObject({ journal, line, bytes: dropped.length, kept_in: `${journal}.damaged` });
    expect(logged?.msg).toContain(`Dropped ${dropped.length} bytes from line ${line} of ${journal}`);
    expect(await readFile(`${journal}.damaged`)).toEqual(Buffer.concat([dropped, Buffer.from("\n")]));

    const ready = await callApi(url, "/ready", null);
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: "degraded", detail: expect.stringContaining(`${journal}.damaged`) });

    const token = (await signInByMail(url, smtp, ADMIN_EMAIL)).tokens.access_token;
    const health = async () => SystemHealthSchema.parse((await callApi(url, "/api/admin/system-health", token)).body);
    expect((await health()).health_checks.storage).toEqual({ status: "warning", value: 1, message: expect.stringMatching(new RegExp(`^Degraded: .*${journal}\\.damaged`)) });

    // Nobody but an admin acknowledges it.
    const userToken = (await signInByMail(url, smtp, "someone@example.com")).tokens.access_token;
    expect((await callApi(url, "/api/admin/storage/acknowledge-damage", userToken, { method: "POST" })).status).toBe(403);

    const acknowledged = await callApi(url, "/api/admin/storage/acknowledge-damage", token, { method: "POST" });
    expect(acknowledged.status).toBe(200);
    const [renamed] = acknowledged.body.acknowledged as string[];
    expect(renamed).toMatch(new RegExp(`^${journal.replaceAll(".", "\\.")}\\.damaged\\.acknowledged-`));
    // Renamed, never deleted.
    expect(await readFile(renamed!)).toEqual(Buffer.concat([dropped, Buffer.from("\n")]));
    expect((await callApi(url, "/ready", null)).body).toEqual({ status: "ready" });
    expect((await health()).health_checks.storage?.status).toBe("healthy");
  }, 90_000);
});

/** A tmpfs of 1 MiB mounted at a new directory (root only), or why not. */
function smallTmpfs(): { path: string } | { reason: string } {
  if (process.getuid?.() !== 0) return { reason: "mounting a small tmpfs needs root" };
  const path = mkdtempSync(join(tmpdir(), "sd-full-disk-"));
  const mounted = spawnSync("mount", ["-t", "tmpfs", "-o", "size=1m,mode=0700", "tmpfs", path], { encoding: "utf8" });
  if (mounted.status === 0) return { path };
  spawnSync("rmdir", [path]);
  return { reason: `mount -t tmpfs failed: ${(mounted.stderr || mounted.error?.message || "").trim()}` };
}

describe("a full disk", () => {
  // Mounted when the test runs (a test filtered out must leave no mount behind).
  let disk: ReturnType<typeof smallTmpfs> = { reason: "not mounted yet" };
  let stack: InProcessStack | undefined;
  beforeAll(() => {
    disk = smallTmpfs();
  });
  afterAll(async () => {
    await stack?.close();
    if ("path" in disk) {
      spawnSync("umount", [disk.path]);
      spawnSync("rmdir", [disk.path]);
    }
  });

  it("answers decisions 507 within a second and /ready 503 with the reason; once space is back it recovers without a restart, and the decision whose write failed is stored", async (context) => {
    if ("reason" in disk) {
      console.warn(`Skipping the full-disk test: ${disk.reason}`);
      context.skip();
    }
    const dataDir = "path" in disk ? disk.path : "";
    stack = await startStack(testEnv(emulator.url, { DATA_DIR: dataDir }));
    expect((await decide(stack.url)).status).toBe(200);

    const filler = join(dataDir, "filler");
    await expect(writeFile(filler, Buffer.alloc(2 << 20))).rejects.toMatchObject({ code: "ENOSPC" });
    // Bigger than a page: no slack at the end of the journal's last page can take its record.
    const unlucky = decide(stack.url, `${"Which one? ".repeat(360)}?`);
    const unready = await pollUntil(() => callApi(stack!.url, "/ready", null), (answer) => answer.status !== 200, 30_000);
    expect(unready).toMatchObject({ status: 503, body: { status: "unavailable", detail: expect.stringMatching(/no space left on device \(ENOSPC\) writing .*decisions\.journal\.jsonl/) } });

    const started = performance.now();
    const refused = await decide(stack.url);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(refused).toMatchObject({ status: 507, body: { detail: MESSAGES.cannotStore } });

    await rm(filler);
    const recovered = await pollUntil(() => callApi(stack!.url, "/ready", null), (answer) => answer.status === 200, 30_000);
    expect(recovered.body).toEqual({ status: "ready" });
    expect((await decide(stack.url)).status).toBe(200);
    // Its write failed and was retried: the decision is answered and stored, not lost.
    const late = await unlucky;
    expect(late.status).toBe(200);
    expect(await stack.store.decisions.findById(late.body.decision_id as string)).not.toBeNull();
  }, 90_000);
});
