import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { createServer, type AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { DecisionResponse } from "@sd/contracts";
import { LiveEvents, pendingProgress } from "@sd/live";
import { useEmulator } from "@sd/provider-emulator/testing";
import { createRedis } from "@sd/queue";
import { LiveClient, postJson } from "@sd/testing/client";
import { keylessEnv, testEnv } from "@sd/testing/env";
import { StoreAudit } from "@sd/testing/faults/store-audit";
import { forkedWorkers, isRunning } from "@sd/testing/forked-workers";
import { testDataDir } from "@sd/testing/leftovers";
import { callApi } from "@sd/testing/history";
import { ServiceProcess } from "@sd/testing/processes";
import { signInByMail } from "@sd/testing/sign-in";
import { SmtpCapture } from "@sd/testing/smtp-capture";

const PUBLIC = "/api/ensembled-llm-categorical-decision-public";
const SIGNED_IN = "/api/ensembled-llm-categorical-decision";

const emulator = useEmulator();
const running: ServiceProcess[] = [];
const start = (...args: Parameters<typeof ServiceProcess.start>) => {
  const service = ServiceProcess.start(...args);
  running.push(service);
  return service;
};
const workersStarted = (s: ServiceProcess) => s.waitForLog((l) => l.msg === "provider workers started", "the workers started");

afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.stop("SIGKILL")));
});

describe("services as separate processes", () => {
  it("a gateway process and a separate worker process complete decisions together", async () => {
    const env = testEnv(emulator.url);
    const gateway = start("all-in-one", { ...env, ROLES: "gateway,aggregator" });
    const worker = start("provider-worker", env);
    const [url] = await Promise.all([gateway.gatewayUrl(), workersStarted(worker)]);
    const { status, body } = await postJson(`${url}${PUBLIC}`, { question: "Split deployment works?", categories: ["Yes", "No"] });
    expect(status).toBe(200);
    expect((body as DecisionResponse).total_votes).toBe(3);
  });

  it("a worker killed mid-job is replaced and the decision completes without a duplicate vote", async () => {
    const env = testEnv(emulator.url, { JOB_LOCK_MS: "1500" });
    const tag = `crash-${randomUUID()}`;
    // Claude's first call hangs long enough for the worker to be killed while holding the job.
    emulator.addRules([
      { match: { vendor: "anthropic", question_contains: tag }, times: 1, latency_ms: 60_000, respond: { kind: "answer", category: "No" } },
      { match: { question_contains: tag }, respond: { kind: "answer", category: "Yes" } },
    ]);
    const gateway = start("all-in-one", { ...env, ROLES: "gateway,aggregator" });
    const first = start("provider-worker", env);
    const [url] = await Promise.all([gateway.gatewayUrl(), workersStarted(first)]);
    const client = new LiveClient(url);
    try {
      await client.join();
      const answer = postJson(`${url}${PUBLIC}`, { question: `Recover? ${tag}`, categories: ["Yes", "No"], request_id: client.requestId });
      await emulator.waitForCall((c) => c.vendor === "anthropic" && c.prompt_text.includes(tag));
      await first.stop("SIGKILL");
      const second = start("provider-worker", env);
      await workersStarted(second);
      const { status, body } = await answer;
      expect(status).toBe(200);
      expect(body).toMatchObject({ total_votes: 3, vote_counts: { Yes: 3, No: 0 }, final_decision: "Yes" });
      expect(emulator.calls().filter((c) => c.vendor === "anthropic" && c.prompt_text.includes(tag))).toHaveLength(2);
      const claudeResults = client.votes.filter((v) => v.provider === "claude" && v.status !== "pending");
      expect(claudeResults).toHaveLength(1);
    } finally {
      client.close();
    }
    // Three processes start (the second worker after the kill) and a lock expires: 10-12 s on a quiet
    // machine, more than twice that beside the browser tests.
  }, 60_000);

  it("SIGTERM lets a worker finish its active vote before it exits", async () => {
    const env = testEnv(emulator.url);
    const tag = `drain-${randomUUID()}`;
    emulator.addRules({ match: { question_contains: tag }, latency_ms: 1500, respond: { kind: "answer", category: "Yes" } });
    const gateway = start("all-in-one", { ...env, ROLES: "gateway,aggregator" });
    const worker = start("provider-worker", env);
    const [url] = await Promise.all([gateway.gatewayUrl(), workersStarted(worker)]);
    const answer = postJson(`${url}${PUBLIC}`, { question: `Drain? ${tag}`, categories: ["Yes", "No"] });
    await emulator.waitForCall((c) => c.prompt_text.includes(tag));
    const exit = await worker.stop("SIGTERM");
    expect(exit.code).toBe(0);
    const { body } = await answer;
    expect(body).toMatchObject({ total_votes: 3, final_decision: "Yes" });
  });

  it("exits with instructions when Redis is not reachable", async () => {
    const service = start("all-in-one", testEnv(emulator.url, { REDIS_URL: "redis://127.0.0.1:1" }));
    const exit = await service.exited;
    expect(exit.code).toBe(1);
    expect(service.stderr).toMatch(/Redis is not reachable at redis:\/\/127\.0\.0\.1:1/);
    expect(service.stderr).toMatch(/redis-server/);
  });

  it("refuses to run a split service on the embedded store without saying so", async () => {
    const service = start("aggregator", testEnv(emulator.url));
    const exit = await service.exited;
    expect(exit.code).toBe(1);
    expect(service.stderr).toMatch(/MONGO_URL is required when the services run separately/);
  });

  it("stops at start with the name of a bad variable", async () => {
    const service = start("all-in-one", testEnv(emulator.url, { PORT: "not-a-port" }));
    expect((await service.exited).code).toBe(1);
    expect(service.stderr).toMatch(/PORT/);
  });
});

describe("npm start's shape: the gateway and aggregator in one process, provider workers forked from it", () => {
  it("keyless with two forked workers: every model votes (simulated, through the one emulator), counted in its /metrics; SIGTERM drains the workers, then the process exits 0", async () => {
    // A port already taken: a forked worker that bound HEALTH_PORT (as a worker service does) would fail to start.
    const taken = createServer().listen(0, "127.0.0.1");
    await once(taken, "listening");
    try {
      const env = keylessEnv(testEnv(emulator.url, { WORKER_PROCESSES: "2", SIMULATED_LATENCY_MS: "0", HEALTH_PORT: String((taken.address() as AddressInfo).port) }));
      const service = start("all-in-one", env);
      const url = await service.gatewayUrl();
      // The gateway listens once every forked worker consumes.
      const workers = forkedWorkers(service);
      expect(workers.map((w) => w.process).sort()).toEqual(["provider-worker-1", "provider-worker-2"]);
      expect(new Set([service.pid, ...workers.map((w) => w.pid)]).size).toBe(3);
      for (const worker of workers) {
        const started = service.lines.find((l) => l.msg === "provider workers started" && l.pid === worker.pid);
        expect(started, worker.process).toMatchObject({ process: worker.process, providers: ["openai:gpt-4o (simulated)", "gemini:gemini-2.5-flash (simulated)", "claude:claude-sonnet-4-6 (simulated)"] });
      }
      const tag = `forked-${randomUUID()}`;
      const answers = await Promise.all(
        Array.from({ length: 4 }, (_, i) => postJson(`${url}${PUBLIC}`, { question: `Forked workers ${tag} #${i}?`, categories: ["Yes", "No"] })),
      );
      for (const { status, body } of answers) {
        expect(status).toBe(200);
        expect(body).toMatchObject({ total_votes: 3 });
        expect(Object.values((body as DecisionResponse).individual_responses)).toEqual([expect.any(String), expect.any(String), expect.any(String)]);
      }
      // The test's emulator was not asked: the product's own answered every model.
      expect(emulator.calls()).toEqual([]);
      // The votes were counted in the worker processes; the gateway's /metrics (on METRICS_PORT) adds them up.
      const metricsUrl = service.lines.find((l) => l.msg === "gateway listening")!.metrics_url as string;
      const metrics = await (await fetch(`${metricsUrl}/metrics`)).text();
      for (const provider of ["openai", "gemini", "claude"]) {
        expect(metrics).toMatch(new RegExp(`^sd_vote_duration_seconds_count\\{(?=[^}]*provider="${provider}")(?=[^}]*outcome="success")[^}]*\\} 4$`, "m"));
      }

      const exit = await service.stop("SIGTERM");
      expect(exit.code).toBe(0);
      expect(service.lines.filter((l) => l.msg === "child process stopped").map((l) => l.process).sort()).toEqual(["provider-worker-1", "provider-worker-2"]);
      // Their shared output closes once they have all exited.
      await service.outputClosed;
      expect(workers.filter((w) => isRunning(w.pid))).toEqual([]);
      const stored = (await StoreAudit.read(env.DATA_DIR!, tag)).decisions();
      expect(stored).toHaveLength(4);
      for (const decision of stored) {
        expect(Object.keys(decision.model_versions).sort()).toEqual(["claude", "gemini", "openai"]);
        for (const version of Object.values(decision.model_versions)) expect(version).toMatch(/ \(simulated\)$/);
      }
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  }, 60_000);
});

describe("live events with two gateways", () => {
  it("a client receives each event exactly once, whichever gateway it is connected to", async () => {
    const smtp = await SmtpCapture.start();
    // Both gateways must accept the same access tokens (each would otherwise generate its own key).
    const env = testEnv(emulator.url, { SMTP_URL: smtp.url, JWT_SECRET: "two-gateways-secret-0123456789abcdefghijkl" });
    const main = start("all-in-one", env); // gateway A, workers and aggregator
    const second = start("all-in-one", { ...env, ROLES: "gateway", EMBEDDED_STORE_SPLIT: "true", DATA_DIR: testDataDir() });
    const [urlA, urlB] = await Promise.all([main.gatewayUrl(), second.gatewayUrl()]);
    const onA = new LiveClient(urlA);
    const onB = new LiveClient(urlB);
    const redis = createRedis(env.REDIS_URL!, "test");
    try {
      const { tokens } = await signInByMail(urlA, smtp, `two-gateways-${randomUUID()}@example.com`);
      await Promise.all([onA.join(), onB.join()]);
      // onB follows the user's history on gateway B; the user decides through gateway A.
      expect(await onB.watchHistory(tokens.access_token)).toEqual({ ok: true });
      // Each client posts to the other gateway: events must cross between replicas.
      const [a, b, signedIn] = await Promise.all([
        postJson(`${urlB}${PUBLIC}`, { question: "Exactly once via A?", categories: ["Yes", "No"], request_id: onA.requestId }),
        postJson(`${urlA}${PUBLIC}`, { question: "Exactly once via B?", categories: ["Yes", "No"], request_id: onB.requestId }),
        callApi(urlA, SIGNED_IN, tokens.access_token, { body: { question: "History exactly once?", categories: ["Yes", "No"] } }),
      ]);
      expect([a.status, b.status, signedIn.status]).toEqual([200, 200, 200]);
      await onB.historyEvent((e) => e.decision_id === signedIn.body.decision_id);
      // A sentinel published after the finals arrives after anything published before it.
      const live = new LiveEvents(redis, env.QUEUE_PREFIX!);
      for (const client of [onA, onB]) {
        await client.final();
        const sentinel = client.voteFrom("sentinel");
        live.modelProgress(pendingProgress({ request_id: client.requestId, decision_id: "-" }, "sentinel"));
        await sentinel;
        expect(client.finals).toHaveLength(1);
        for (const provider of ["openai", "gemini", "claude"]) {
          expect(client.votes.filter((v) => v.provider === provider).map((v) => v.status)).toEqual(["pending", "success"]);
        }
      }
      expect(onB.history.map((e) => e.decision_id)).toEqual([signedIn.body.decision_id]);
      expect(onA.history).toEqual([]);
    } finally {
      onA.close();
      onB.close();
      redis.disconnect();
      await smtp.close();
    }
  });
});
