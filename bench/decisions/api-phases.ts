import { randomBytes, randomUUID } from "node:crypto";
import { API_KEY_HEADER, ApiKeySchema } from "@sd/contracts";
import { signInByMail } from "@sd/testing/sign-in";
import { SmtpCapture } from "@sd/testing/smtp-capture";
import { ADAPTER_CONCURRENCY, benchAdapters, type AdapterResult } from "./adapter-phases";
import { BASELINE_PATH, BASELINE_QUORUM_PATH, BaselineResponseSchema } from "./baseline-contract";
import { startDeployment, type Deployment } from "./deployment";
import { LoadClient, measureDecisions, measurePair, type Answer, type PhaseRecord } from "./http-load";
import { VENDOR_OF, type BenchProvider } from "./options";
import { productEnv } from "./product-env";
import { CATEGORIES, question, shortly } from "./requests";
import { metered } from "../kit";
import type { BenchContext, ComparedRuns } from "./variant-phases";

export interface ApiResult {
  /** The same decision through a bearer token and through an API key, interleaved. */
  bearer: PhaseRecord;
  keyed: PhaseRecord;
  /** The key check alone: one history page through each, one request at a time. */
  bearerCheck: PhaseRecord;
  keyCheck: PhaseRecord;
  /** /v1/chat/completions and MCP `decide`, each against /v1/ensemble. */
  adapters: AdapterResult;
  /**
   * /v1/ensemble with each model at its own latency: early quorum on (the /v1 default) and off;
   * and the direct baseline on the same questions: answered at the quorum (the second-fastest
   * model), and after all three calls.
   */
  earlyQuorum: {
    on: PhaseRecord;
    off: PhaseRecord;
    directQuorum: PhaseRecord;
    directAll: PhaseRecord;
    latencies: Record<BenchProvider, number>;
    /** Rounds 2 to BENCH_ROUNDS of the pair the target compares: early quorum on, then the direct quorum. */
    moreRounds: { on: PhaseRecord; directQuorum: PhaseRecord }[];
  };
  /** Decisions with three large images, one at a time; null when BENCH_IMAGES_N is 0. */
  images: ImagesResult | null;
}

export interface ImagesResult {
  mb: number;
  /**
   * At concurrency 1: the pipeline is the signed-in web endpoint (the images go through the stash
   * to every model and are stored as the user's assets), the baseline the same body's three SDK calls.
   */
  runs: ComparedRuns;
}

/** Three different images of `mb` MB each, as data URLs (random bytes: the contract checks the URL and the size, not the picture). */
function largeImages(mb: number): string[] {
  return [1, 2, 3].map(() => `data:image/png;base64,${randomBytes(mb * 1024 * 1024).toString("base64")}`);
}

/** Throws unless the answer is a success (200, or 201 for a created key); returns its body. */
function ok(answer: Answer, what: string): Record<string, unknown> {
  if (answer.status < 200 || answer.status > 299) throw new Error(`${what} answered ${answer.status}: ${shortly(answer.body)}`);
  return answer.body as Record<string, unknown>;
}

/**
 * The public API's rows, on a one-process deployment with mail (sign-in by a captured magic
 * link, one API key): bearer against API key on the same decision, the key check alone, and
 * early quorum against the second-fastest model.
 */
export async function benchApi(ctx: BenchContext): Promise<ApiResult> {
  const { options } = ctx;
  const smtp = await SmtpCapture.start();
  const env = productEnv(ctx.emulator.url, options, { SMTP_URL: smtp.url });
  ctx.prefixes.add(env.QUEUE_PREFIX!);
  ctx.progress("api: starting the product (one process, with mail) and signing in");
  const deployment = await startDeployment("one", env);
  const client = new LoadClient(deployment.url, options.c);
  const direct = new LoadClient(ctx.baseline.url, options.c);
  try {
    // One signed-in user with one API key: the bearer rows and the key rows are the same user's.
    const { tokens } = await signInByMail(deployment.url, smtp, "bench@example.com");
    const bearer = { authorization: `Bearer ${tokens.access_token}` };
    const created = ok(await client.send("POST", "/api/api-keys", { name: "bench" }, bearer), "creating an API key");
    const keyed = { [API_KEY_HEADER]: ApiKeySchema.parse(created).keyvalue! };

    const withBearer = async (i: number) => {
      const body = ok(await client.send("POST", "/api/ensembled-llm-categorical-decision", { question: question("bearer", i), categories: CATEGORIES }, bearer), "bearer decision");
      if (body.total_votes !== 3) throw new Error(`bearer decision ${i}: ${JSON.stringify(body)}`);
    };
    // Three votes every time: early quorum is on by default on /v1 and would answer after two.
    const withKey = async (i: number) => {
      const body = ok(await client.send("POST", "/v1/ensemble", { prompt: question("key", i), valid_responses: CATEGORIES, early_quorum: false }, keyed), "/v1 decision");
      if (body.total_votes !== 3) throw new Error(`/v1 decision ${i}: ${JSON.stringify(body)}`);
    };
    const historyWithBearer = async () => void ok(await client.send("GET", "/api/decision-history?limit=1", undefined, bearer), "bearer history");
    const historyWithKey = async () => void ok(await client.send("GET", "/v1/decision-history?limit=1", undefined, keyed), "/v1 history");

    ctx.progress("api: warm-up");
    for (let i = 0; i < Math.min(options.c, 10); i++) {
      await Promise.all([withBearer(-i - 1), withKey(-i - 1), historyWithBearer(), historyWithKey()]);
    }
    ctx.progress(`api: bearer and API key, interleaved (${options.n} each at concurrency ${options.c})`);
    const [bearerRun, keyRun] = await measurePair(options.n, options.c, withBearer, withKey, options.rampMs);
    ctx.progress(`api: the key check alone (${options.checks} each, one at a time)`);
    const [bearerCheck, keyCheck] = await measurePair(options.checks, 1, historyWithBearer, historyWithKey);
    ctx.progress(`api: /v1/chat/completions and MCP decide, each against /v1/ensemble (${options.n} each at concurrency ${ADAPTER_CONCURRENCY})`);
    const adapters = await benchAdapters(deployment.url, client, keyed, options.n, options.rampMs);

    // Each model at its own latency, all agreeing, for questions carrying this run's tag only.
    const tag = `eq-${randomUUID().slice(0, 8)}`;
    const { latencies } = options.earlyQuorum;
    await ctx.emulator.addRules(
      (Object.keys(latencies) as BenchProvider[]).map((id) => ({
        match: { vendor: VENDOR_OF[id], question_contains: tag },
        latency_ms: latencies[id],
        respond: { kind: "answer" as const, category: "Approve" },
      })),
    );
    const quorumLoad = (earlyQuorum: boolean) => ({
      count: options.earlyQuorum.n,
      concurrency: options.c,
      rampMs: options.rampMs,
      send: (i: number) =>
        client.send("POST", "/v1/ensemble", { prompt: question(`${tag}-${earlyQuorum}`, i), valid_responses: CATEGORIES, early_quorum: earlyQuorum }, keyed),
      check: (answer: Answer) => {
        const body = answer.body as { ensemble_decision?: unknown } | null;
        return answer.status === 200 && body?.ensemble_decision === "Approve" ? null : shortly(answer.body);
      },
    });
    const directLoad = (path: string, answers: number) => ({
      count: options.earlyQuorum.n,
      concurrency: options.c,
      rampMs: options.rampMs,
      send: (i: number) => direct.send("POST", path, { question: question(`${tag}-direct-${answers}`, i), categories: CATEGORIES }),
      check: (answer: Answer) => {
        const parsed = BaselineResponseSchema.safeParse(answer.body);
        const agreed = parsed.success && parsed.data.categories.length === answers && parsed.data.categories.every((c) => c === "Approve");
        return answer.status === 200 && agreed ? null : shortly(answer.body);
      },
    });
    // As many warm-up decisions as a product start gets (BENCH_WARMUP): early quorum's own code
    // paths (the board's scripts, the cancels, the aborted calls) are cold until now, and the first
    // hundred decisions of it ran 50-100 ms slower than the rest. At least one each, so a broken
    // early quorum or direct quorum stops the run before anything is measured.
    await measureDecisions({ ...quorumLoad(true), count: Math.max(options.warmup, 1), failFast: true });
    await measureDecisions({ ...directLoad(BASELINE_QUORUM_PATH, 2), count: Math.max(options.warmup, 1), failFast: true });
    ctx.progress(`api: early quorum on and off, and directly (${options.earlyQuorum.n} each at concurrency ${options.c})`);
    const on = await measureDecisions(quorumLoad(true));
    const directQuorum = await measureDecisions(directLoad(BASELINE_QUORUM_PATH, 2));
    const off = await measureDecisions(quorumLoad(false));
    const directAll = await measureDecisions(directLoad(BASELINE_PATH, 3));
    // Like the variants' pairs: the target's figure moves by tens of ms from run to run, so it is a median.
    const moreRounds: ApiResult["earlyQuorum"]["moreRounds"] = [];
    for (let round = 2; round <= options.rounds; round++) {
      ctx.progress(`api: early quorum and the direct quorum, round ${round} of ${options.rounds}`);
      moreRounds.push({ on: await measureDecisions(quorumLoad(true)), directQuorum: await measureDecisions(directLoad(BASELINE_QUORUM_PATH, 2)) });
    }
    // Last: 30 MB bodies leave large garbage behind that would slow the phases after them.
    const images = options.images.n > 0 ? await benchImages(ctx, deployment, bearer) : null;
    return { bearer: bearerRun, keyed: keyRun, bearerCheck, keyCheck, adapters, earlyQuorum: { on, off, directQuorum, directAll, latencies, moreRounds }, images };
  } finally {
    direct.close();
    client.close();
    await deployment.stop();
    await smtp.close();
  }
}

/**
 * A decision with three images of BENCH_IMAGE_MB each, one at a time, through the signed-in web
 * endpoint and directly: what a picture costs beyond the model calls, which carry it too.
 */
async function benchImages(ctx: BenchContext, deployment: Deployment, bearer: Record<string, string>): Promise<ImagesResult> {
  const { n, mb } = ctx.options.images;
  const images = largeImages(mb);
  const client = new LoadClient(deployment.url, 1);
  const direct = new LoadClient(ctx.baseline.url, 1);
  try {
    const load = (send: (i: number) => Promise<Answer>, votes: (body: Record<string, unknown>) => boolean) => ({
      count: n,
      concurrency: 1,
      send,
      check: (answer: Answer) => (answer.status === 200 && votes(answer.body as Record<string, unknown>) ? null : shortly(answer.body)),
    });
    const product = load(
      (i) => client.send("POST", "/api/ensembled-llm-categorical-decision", { question: question("images", i), categories: CATEGORIES, images }, bearer),
      (body) => body.total_votes === 3,
    );
    const baseline = load(
      (i) => direct.send("POST", BASELINE_PATH, { question: question("images-direct", i), categories: CATEGORIES, images }),
      (body) => BaselineResponseSchema.safeParse(body).data?.categories.length === 3,
    );
    ctx.progress(`api: decisions with three ${mb} MB images (${n} each, one at a time)`);
    // One of each first, right before its run: the large-body paths are cold until now, and a
    // keep-alive socket left idle through the other's run (5 s or more) may be closed by its server
    // just as the next 30 MB body goes out (EPIPE).
    await measureDecisions({ ...product, count: 1, failFast: true });
    const pipeline = await metered(ctx.meter, deployment.processes, () => measureDecisions(product));
    await measureDecisions({ ...baseline, count: 1, failFast: true });
    const directRun = await metered(ctx.meter, [ctx.baseline], () => measureDecisions(baseline));
    return { mb, runs: { concurrency: 1, pipeline: { record: pipeline.result, usage: pipeline.usage }, baseline: { record: directRun.result, usage: directRun.usage } } };
  } finally {
    client.close();
    direct.close();
  }
}
