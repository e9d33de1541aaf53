import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { useEmulator } from "@sd/provider-emulator/testing";
import type { ProviderErrorKind } from "@sd/providers";
import type { VOTE_ERROR_KINDS } from "@sd/telemetry";
import { postJson } from "@sd/testing/client";
import { testEnv } from "@sd/testing/env";
import { freePort } from "@sd/testing/processes";
import { startStack, type InProcessStack } from "@sd/testing/stack";

/**
 * The gateway's /metrics against Debian's Prometheus tools: `promtool check metrics` accepts the
 * scrape, and a real Prometheus scraping the product answers every panel query of the Grafana
 * dashboard with a series on a healthy day (a series that appears only after a failure reads
 * "No data"). CI installs the `prometheus` package (see .ci/run); without it this file is skipped.
 */
const missing = ["promtool", "prometheus"].filter((tool) => spawnSync(tool, ["--version"]).error !== undefined);
if (missing.length > 0) {
  console.warn(`tests/ops/prometheus.test.ts SKIPPED: ${missing.join(" and ")} not on PATH (apt-get install prometheus)`);
}

// Every kind a worker counts is started at 0; a provider error kind added later must join the list.
type UncountedKinds = Exclude<ProviderErrorKind, (typeof VOTE_ERROR_KINDS)[number]>;
const allKindsCounted: [UncountedKinds] extends [never] ? true : false = true;

interface Panel {
  title: string;
  targets?: { expr: string }[];
  panels?: Panel[];
}
const dashboard = JSON.parse(readFileSync(new URL("../../ops/grafana/smart-decision.json", import.meta.url), "utf8")) as {
  panels: Panel[];
  templating: { list: { name: string; type: string }[] };
};
const allPanels = (list: Panel[]): Panel[] => list.flatMap((p) => [p, ...allPanels(p.panels ?? [])]);
const queries = allPanels(dashboard.panels).flatMap((p) => (p.targets ?? []).map((t) => ({ panel: p.title, expr: t.expr })));

const JOB = "smart-decision";

describe.skipIf(missing.length > 0)("Prometheus against the running product", () => {
  const emulator = useEmulator();
  let stack: InProcessStack;
  let dir: string;
  let prometheus: ChildProcess | undefined;
  let prometheusUrl: string;
  let scrape: string;

  /** A PromQL instant query against the test's Prometheus. */
  async function query(expr: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]> {
    const response = await fetch(`${prometheusUrl}/api/v1/query?${new URLSearchParams({ query: expr })}`);
    const body = (await response.json()) as { status: string; error?: string; data: { result: { metric: Record<string, string>; value: [number, string] }[] } };
    if (body.status !== "success") throw new Error(`${expr}: ${body.error}`);
    return body.data.result;
  }

  beforeAll(async () => {
    stack = await startStack(testEnv(emulator.url));
    const decision = await postJson(`${stack.url}/api/ensembled-llm-categorical-decision-public`, { question: "Metrics?", categories: ["A", "B"] });
    expect(decision.status).toBe(200);
    scrape = await (await fetch(`${stack.metricsUrl}/metrics`)).text();

    dir = mkdtempSync(join(tmpdir(), "sd-prometheus-"));
    const target = new URL(stack.metricsUrl).host;
    writeFileSync(
      join(dir, "prometheus.yml"),
      `global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: ${JOB}\n    static_configs:\n      - targets: ["${target}"]\n`,
    );
    const port = await freePort();
    prometheusUrl = `http://127.0.0.1:${port}`;
    const child = spawn(
      "prometheus",
      [`--config.file=${join(dir, "prometheus.yml")}`, `--storage.tsdb.path=${join(dir, "data")}`, `--web.listen-address=127.0.0.1:${port}`],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
    prometheus = child;
    // Prometheus logs to stderr; this line comes once its API answers.
    let log = "";
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`prometheus did not start within 15 s:\n${log}`)), 15_000);
      child.stderr!.on("data", (chunk: Buffer) => {
        log += chunk.toString();
        if (log.includes("Server is ready to receive web requests")) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`prometheus exited with ${code}:\n${log}`));
      });
    });
    // Two scrapes at least, so rate() has two samples to work with.
    await vi.waitFor(
      async () => {
        const targets = (await (await fetch(`${prometheusUrl}/api/v1/targets`)).json()) as { data: { activeTargets: { health: string; lastError: string }[] } };
        const [active] = targets.data.activeTargets;
        if (active?.health !== "up") throw new Error(`target not up yet: ${active?.health} ${active?.lastError}`);
        const samples = await query(`count_over_time(up{job="${JOB}"}[1m])`);
        if (Number(samples[0]?.value[1] ?? 0) < 2) throw new Error("fewer than two scrapes yet");
      },
      { timeout: 15_000, interval: 200 },
    );
  }, 40_000);

  afterAll(async () => {
    if (prometheus && prometheus.exitCode === null) {
      const exited = once(prometheus, "exit");
      prometheus.kill("SIGTERM");
      await exited;
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
    await stack?.close();
  });

  it("promtool check metrics accepts the scrape", () => {
    expect(allKindsCounted).toBe(true);
    const result = spawnSync("promtool", ["check", "metrics"], { input: scrape, encoding: "utf8" });
    expect({ status: result.status, output: `${result.stdout}${result.stderr}` }).toEqual({ status: 0, output: "" });
  });

  it("every panel query names series the product exposes, and returns at least one on a healthy day", async () => {
    const variables = dashboard.templating.list.filter((v) => v.type === "query").map((v) => v.name);
    // The values of this scrape; a namespace exists only under Kubernetes, so `All` (".*") stands for it.
    const values: Record<string, string> = { job: JOB, namespace: ".*", instance: new URL(stack.metricsUrl).host, deployment: stack.vars.QUEUE_PREFIX! };
    expect(variables.sort()).toEqual(Object.keys(values).sort());
    expect(queries.length).toBeGreaterThan(5);
    for (const { panel, expr } of queries) {
      for (const metric of expr.match(/\bsd_[a-z0-9_]+/g) ?? []) {
        expect(scrape, `${panel}: ${metric}`).toMatch(new RegExp(`^${metric}[{ ]`, "m"));
      }
      // Queue series carry the deployment (QUEUE_PREFIX) too; the others are told apart by their target.
      const filters = expr.includes("sd_queue_jobs") ? variables : variables.filter((name) => name !== "deployment");
      for (const name of filters) expect(expr, `${panel} filters by $${name}`).toContain(`"$${name}"`);
      const concrete = expr.replaceAll("$__rate_interval", "1m").replace(/\$(\w+)/g, (whole, name: string) => values[name] ?? whole);
      expect(concrete, panel).not.toContain("$");
      expect((await query(concrete)).length, `${panel}: ${concrete}`).toBeGreaterThan(0);
    }
  });
});
