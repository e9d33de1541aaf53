import { Agent, request, type IncomingHttpHeaders } from "node:http";
import { setTimeout as delay } from "node:timers/promises";
import { closedLoop, percentiles, type Timing } from "../kit";

/** One HTTP answer as the load generator saw it. */
export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  /** Parsed JSON, or the text when the body is not JSON. */
  body: unknown;
}

/**
 * The load generator's HTTP/1.1 client of one origin: `node:http` with a keep-alive pool of one
 * socket per concurrent request. It costs the load generator less CPU than `fetch`, and it is the
 * same client for the product and the baseline, so neither is favoured.
 */
export class LoadClient {
  readonly #agent: Agent;

  constructor(
    readonly origin: string,
    sockets: number,
    /** A request with no byte for this long fails (the product answers within DECISION_TIMEOUT_MS, 90 s by default). */
    private readonly idleTimeoutMs = 180_000,
  ) {
    this.#agent = new Agent({ keepAlive: true, maxSockets: sockets });
  }

  send(method: "GET" | "POST", path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const sent = payload === undefined ? headers : { ...headers, "content-type": "application/json", "content-length": String(Buffer.byteLength(payload)) };
    return new Promise((resolve, reject) => {
      const req = request(new URL(path, this.origin), { method, agent: this.#agent, headers: sent, timeout: this.idleTimeoutMs }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", reject);
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            // Not JSON (an HTML error page, an empty body): kept as text for the error message.
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed });
        });
      });
      req.on("timeout", () => req.destroy(new Error(`no answer from ${this.origin}${path} within ${this.idleTimeoutMs} ms`)));
      req.on("error", reject);
      req.end(payload);
    });
  }

  /** Closes the pooled sockets (a phase's pool is not reused: the server may have closed idle ones meanwhile). */
  close(): void {
    this.#agent.destroy();
  }
}

/** What one timed phase saw: answered decisions, 503 rejections (overload) and failures, apart. */
export class PhaseRecord {
  /** Latency of each accepted answer, ms. */
  readonly answered: number[] = [];
  /** Latency of each 503 (overload: a fast refusal is the point), ms. */
  readonly rejected: number[] = [];
  /** Each decision from its first attempt to its answer, waits after 503s included, ms. */
  readonly endToEnd: number[] = [];
  /** Retry-After values of the 503s (the header as sent, "none" when absent), with their counts. */
  readonly retryAfter = new Map<string, number>();
  errors = 0;
  readonly errorSamples: string[] = [];
  seconds = 0;

  fail(message: string, failFast = false): void {
    if (failFast) throw new Error(message);
    this.errors += 1;
    if (this.errorSamples.length < 3) this.errorSamples.push(message);
  }

  /** Accepted answers per second of wall time. */
  get perSecond(): number {
    return this.answered.length / this.seconds;
  }

  latency(): Timing {
    return percentiles(this.answered);
  }
}

export interface DecisionLoad {
  count: number;
  concurrency: number;
  /** Sends decision `i`. */
  send: (i: number) => Promise<Answer>;
  /** Null when the answer is a complete decision, else why not. */
  check: (answer: Answer) => string | null;
  /**
   * Overload: a 503 is a refusal, not an error. It is counted with its latency and Retry-After,
   * and the user waits that long (at most 10 s) and sends the same decision again, as a
   * well-behaved client does.
   */
  retryRefusals?: boolean;
  /** Rejects at the first failure instead of recording it (a warm-up: a broken product should not cost minutes of timeouts). */
  failFast?: boolean;
  /**
   * The users join one by one, evenly over this many ms (see `BenchOptions.rampMs`); 0 or unset:
   * all at the same instant, the lockstep burst the overload phase is about.
   */
  rampMs?: number;
}

/** The longest a refused user waits before retrying, whatever Retry-After says, so a phase stays short. */
const MAX_RETRY_WAIT_S = 10;

/** Runs a phase of decisions and records every answer. */
export async function measureDecisions(load: DecisionLoad): Promise<PhaseRecord> {
  const record = new PhaseRecord();
  const decide = async (i: number): Promise<void> => {
    const first = performance.now();
    for (;;) {
      const t0 = performance.now();
      let answer: Answer;
      try {
        answer = await load.send(i);
      } catch (error) {
        record.fail(error instanceof Error ? error.message : String(error), load.failFast);
        return;
      }
      const ms = performance.now() - t0;
      if (load.retryRefusals && answer.status === 503) {
        record.rejected.push(ms);
        const header = answer.headers["retry-after"];
        const value = typeof header === "string" ? header : "none";
        record.retryAfter.set(value, (record.retryAfter.get(value) ?? 0) + 1);
        const seconds = Number(value);
        await delay(1000 * Math.min(MAX_RETRY_WAIT_S, Number.isFinite(seconds) && seconds > 0 ? seconds : 1));
        continue;
      }
      const problem = load.check(answer);
      if (problem !== null) {
        record.fail(`${answer.status} ${problem}`, load.failFast);
        return;
      }
      record.answered.push(ms);
      record.endToEnd.push(performance.now() - first);
      return;
    }
  };
  record.seconds = await closedLoop(load.count, load.concurrency, decide, load.rampMs);
  return record;
}

/**
 * Runs `a` and `b` `count` times each, alternating in one stream of work at `concurrency`, so
 * both meet the same load, the same warm caches and the same background noise. The users join
 * over `rampMs`, as in `DecisionLoad`.
 */
export async function measurePair(
  count: number,
  concurrency: number,
  a: (i: number) => Promise<void>,
  b: (i: number) => Promise<void>,
  rampMs = 0,
): Promise<[PhaseRecord, PhaseRecord]> {
  const records: [PhaseRecord, PhaseRecord] = [new PhaseRecord(), new PhaseRecord()];
  const decide = async (i: number): Promise<void> => {
    const record = records[i % 2]!;
    const t0 = performance.now();
    try {
      await (i % 2 === 0 ? a : b)(Math.floor(i / 2));
      record.answered.push(performance.now() - t0);
    } catch (error) {
      record.fail(error instanceof Error ? error.message : String(error));
    }
  };
  const seconds = await closedLoop(count * 2, concurrency, decide, rampMs);
  for (const record of records) record.seconds = seconds;
  return records;
}
