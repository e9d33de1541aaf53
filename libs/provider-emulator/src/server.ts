import { createHash, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import type { AddressInfo } from "node:net";
import express, { type NextFunction, type Request, type Response } from "express";
import { z } from "zod";
import { anthropicWire } from "./anthropic";
import { geminiWire } from "./gemini";
import { Lab, type LabState } from "./lab";
import { schemaCategories } from "./prompt-reader";
import { openaiWire } from "./openai";
import { RuleStore, type EmulatorRule, type EmulatorVendor } from "./rules";
import { generateFromSchema, seededRng, SIMULATED_RATIONALE } from "./schema-walker";
import { BadRequest, type ParsedCall, type VendorWire } from "./wire";

export interface EmulatorOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  /** Delay of every answer no rule sets `latency_ms` for. */
  defaultLatencyMs?: number;
  /**
   * The secret the control routes (`/_emulator/*`) require in the `x-emulator-token` header;
   * unset means a random one per start, so only whoever started the emulator can script it.
   */
  controlToken?: string;
  /**
   * Keep the last 10,000 questions for `calls()`, `waitForCall()` and `/_emulator/calls`. Off by
   * default: in the keyless product they are every user's questions. The test harness turns it on.
   */
  recordCalls?: boolean;
}

/** One vendor request the emulator received (images are counted, not kept). */
export interface EmulatorCall {
  vendor: EmulatorVendor;
  model: string;
  prompt_text: string;
  image_count: number;
  /** The categories the answer's schema allows (its `category` enum), or null for another schema or none. */
  categories: string[] | null;
  /** Arrival time, epoch ms (numbers, so tests can subtract them). */
  at: number;
  /**
   * How the request ended: still open, answered, or dropped (its connection closed before an
   * answer was sent: the client gave up or aborted, or the emulator closed).
   */
  outcome: "pending" | "answered" | "dropped";
  /** When it ended, epoch ms; null while pending. */
  ended_at: number | null;
}

export interface Emulator {
  /** `http://host:port`, without a trailing slash. */
  url: string;
  port: number;
  /** Send it as `x-emulator-token` to reach the control routes. */
  controlToken: string;
  /** Validates (throws a ZodError) and appends rules after the existing ones. */
  addRules(rules: EmulatorRule | readonly EmulatorRule[]): void;
  /** Rules not used up yet, in match order. */
  rules(): EmulatorRule[];
  /** Clears rules, the lab and the call log. */
  reset(): void;
  /** Throws unless the emulator was started with `recordCalls`. */
  calls(): EmulatorCall[];
  /**
   * Resolves with the first call, already received or yet to come, that `predicate` accepts;
   * rejects after `timeoutMs` (default 10 s). Throws unless started with `recordCalls`.
   */
  waitForCall(predicate: (call: EmulatorCall) => boolean, timeoutMs?: number): Promise<EmulatorCall>;
  /** As waitForCall, for the first matching call that has ended (answered or dropped). */
  waitForCallEnd(predicate: (call: EmulatorCall) => boolean, timeoutMs?: number): Promise<EmulatorCall>;
  /** Configures the accuracy lab (see LAB_DESCRIPTION in ./lab): validates (throws a ZodError), then merges. */
  configureLab(config: unknown): LabState;
  labState(): LabState;
  /** Stops listening and drops open connections, hanging ones included. */
  close(): Promise<void>;
}

/** Keeps a long keyless run from growing the call log without bound. */
const MAX_CALLS = 10_000;
const GEMINI_PATH = /^\/(?:v1|v1beta)\/models\/([^/]+):generateContent$/;
export const CONTROL_TOKEN_HEADER = "x-emulator-token";
const CALL_LOG_OFF = "the call log is off: start the emulator with recordCalls";

/** Constant-time comparison of a presented token with the expected one (digests, so lengths may differ). */
function sameToken(presented: string | undefined, expected: string): boolean {
  if (presented === undefined) return false;
  const digest = (value: string): Buffer => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(presented), digest(expected));
}

/** Base URL an SDK of `vendor` needs to reach the emulator at `url` (OpenAI's SDK expects the /v1 prefix in it). */
export function emulatorBaseUrl(url: string, vendor: EmulatorVendor | "openai-compatible"): string {
  return vendor === "openai" || vendor === "openai-compatible" ? `${url}/v1` : url;
}

export async function startEmulator(opts: EmulatorOptions = {}): Promise<Emulator> {
  const host = opts.host ?? "127.0.0.1";
  const defaultLatencyMs = opts.defaultLatencyMs ?? 0;
  const controlToken = opts.controlToken ?? randomBytes(32).toString("base64url");
  const recordCalls = opts.recordCalls ?? false;
  const store = new RuleStore();
  const lab = new Lab();
  let callLog: EmulatorCall[] = [];
  const timers = new Set<NodeJS.Timeout>();
  /** waitForCall and waitForCallEnd callers, told about each call as it is logged and as it ends. */
  const watchers = new Set<(call: EmulatorCall) => void>();

  /** The first logged call, past or future, that `accepts`; rejects after timeoutMs. */
  const waitFor = (accepts: (call: EmulatorCall) => boolean, timeoutMs: number, failure: string): Promise<EmulatorCall> => {
    if (!recordCalls) return Promise.reject(new Error(CALL_LOG_OFF));
    const seen = callLog.find(accepts);
    if (seen) return Promise.resolve(copyCall(seen));
    return new Promise<EmulatorCall>((resolve, reject) => {
      const watcher = (call: EmulatorCall): void => {
        if (!accepts(call)) return;
        done();
        resolve(copyCall(call));
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`${failure} within ${timeoutMs} ms`));
      }, timeoutMs);
      const done = (): void => {
        clearTimeout(timer);
        watchers.delete(watcher);
      };
      watchers.add(watcher);
    });
  };

  const reply = (wire: VendorWire, call: ParsedCall, rule: EmulatorRule | null, res: Response): void => {
    const id = randomUUID().replaceAll("-", "").slice(0, 24);
    const respond = rule?.respond ?? { kind: "answer" };
    switch (respond.kind) {
      case "hang":
        return; // Never answered: the socket closes when the client gives up or the emulator closes.
      case "error":
        if (respond.retry_after_s !== undefined) res.set("retry-after", String(respond.retry_after_s));
        res.status(respond.status).json(wire.error(respond.status, respond.message ?? `Simulated error ${respond.status}`, respond.retry_after_s));
        return;
      case "malformed":
        res.json(wire.malformed(call, id, respond.usage));
        return;
      case "answer": {
        const rng = seededRng(call.model, call.promptText);
        // The lab (and gossip and judge simulation) answers unless a rule pins the category.
        const simulated = call.schema === null || respond.category !== undefined ? null : lab.answer(call);
        const output =
          call.schema === null
            ? (respond.category ?? SIMULATED_RATIONALE)
            : generateFromSchema(call.schema, rng, {
                category: respond.category ?? simulated?.category,
                confidence: respond.confidence ?? simulated?.confidence,
                rationale: respond.rationale ?? simulated?.rationale,
              });
        res.json(wire.success(call, output, id, respond.usage));
        return;
      }
    }
  };

  const vendorRoute = (wire: VendorWire) => (req: Request, res: Response) => {
    const pathModel = GEMINI_PATH.exec(req.path)?.[1];
    let call: ParsedCall;
    try {
      call = wire.parse(req.body, pathModel === undefined ? null : decodeURIComponent(pathModel));
    } catch (error) {
      if (!(error instanceof BadRequest)) throw error;
      res.status(400).json(wire.error(400, error.message, undefined));
      return;
    }
    if (recordCalls) {
      const logged: EmulatorCall = {
        vendor: wire.vendor,
        model: call.model,
        prompt_text: call.promptText,
        image_count: call.imageCount,
        categories: schemaCategories(call.schema),
        at: Date.now(),
        outcome: "pending",
        ended_at: null,
      };
      callLog.push(logged);
      if (callLog.length > MAX_CALLS) callLog = callLog.slice(-MAX_CALLS);
      for (const watcher of watchers) watcher(logged);
      // "close" follows "finish" for an answered request and comes alone for a dropped one.
      res.on("close", () => {
        logged.outcome = res.writableFinished ? "answered" : "dropped";
        logged.ended_at = Date.now();
        for (const watcher of watchers) watcher(logged);
      });
    }

    const rule = store.take({ vendor: wire.vendor, model: call.model, promptText: call.promptText });
    const latency = rule?.latency_ms ?? lab.latencyMs(call) ?? defaultLatencyMs;
    if (latency <= 0 || rule?.respond.kind === "hang") {
      reply(wire, call, rule, res);
      return;
    }
    const timer = setTimeout(() => {
      timers.delete(timer);
      reply(wire, call, rule, res);
    }, latency);
    timers.add(timer);
    // A client that gave up (timeout, abort) gets nothing, and its timer must not linger.
    res.on("close", () => {
      clearTimeout(timer);
      timers.delete(timer);
    });
  };

  const app = express();
  app.disable("x-powered-by");
  // Images arrive inline as base64: up to 3 x 10 MB decoded.
  app.use(express.json({ limit: "64mb" }));

  app.post("/v1/chat/completions", vendorRoute(openaiWire));
  app.post("/v1/messages", vendorRoute(anthropicWire));
  app.post(GEMINI_PATH, vendorRoute(geminiWire));

  // The control routes change every answer and read the call log: only the token's holder may.
  // (The vendor routes above keep accepting any key, as the SDKs send one.)
  app.use("/_emulator", (req, res, next) => {
    if (sameToken(req.get(CONTROL_TOKEN_HEADER), controlToken)) {
      next();
      return;
    }
    res.status(401).json({ error: `send the emulator's control token in the ${CONTROL_TOKEN_HEADER} header` });
  });
  app.post("/_emulator/rules", (req, res) => {
    try {
      const added = store.add(req.body);
      res.json({ added, pending: store.list().length });
    } catch (error) {
      if (!(error instanceof z.ZodError)) throw error;
      res.status(400).json({ error: `invalid rule: ${z.prettifyError(error)}`, issues: error.issues });
    }
  });
  app.get("/_emulator/rules", (_req, res) => {
    res.json(store.list());
  });
  app.post("/_emulator/reset", (_req, res) => {
    store.clear();
    lab.clear();
    callLog = [];
    res.json({ ok: true });
  });
  app.post("/_emulator/lab", (req, res) => {
    try {
      res.json(lab.configure(req.body));
    } catch (error) {
      if (!(error instanceof z.ZodError)) throw error;
      res.status(400).json({ error: `invalid lab configuration: ${z.prettifyError(error)}`, issues: error.issues });
    }
  });
  app.get("/_emulator/lab", (_req, res) => {
    res.json(lab.state());
  });
  app.get("/_emulator/calls", (_req, res) => {
    if (!recordCalls) {
      res.status(404).json({ error: CALL_LOG_OFF });
      return;
    }
    res.json(callLog);
  });
  app.get("/_emulator/health", (_req, res) => {
    res.json({ status: "ok", rules: store.list().length, calls: recordCalls ? callLog.length : null });
  });

  app.use((req, res) => {
    res.status(404).json(wireFor(req.path).error(404, `No route for ${req.method} ${req.path}`, undefined));
  });
  // Express 5 needs all four parameters to recognise an error handler.
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const status = isHttpError(error) ? error.status : 500;
    res.status(status).json(wireFor(req.path).error(status, error instanceof Error ? error.message : "emulator error", undefined));
  });

  const server = app.listen(opts.port ?? 0, host);
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  });
  const { port } = server.address() as AddressInfo; // listening on host:port, so never a pipe name or null
  const urlHost = host.includes(":") ? `[${host}]` : host;

  return {
    url: `http://${urlHost}:${port}`,
    port,
    controlToken,
    addRules: (rules) => void store.add(rules),
    rules: () => store.list(),
    reset: () => {
      store.clear();
      lab.clear();
      callLog = [];
    },
    configureLab: (config) => lab.configure(config),
    labState: () => lab.state(),
    calls: () => {
      if (!recordCalls) throw new Error(CALL_LOG_OFF);
      return callLog.map(copyCall);
    },
    waitForCall: (predicate, timeoutMs = 10_000) => waitFor(predicate, timeoutMs, "no matching emulator call"),
    waitForCallEnd: (predicate, timeoutMs = 10_000) =>
      waitFor((call) => call.outcome !== "pending" && predicate(call), timeoutMs, "no matching emulator call ended"),
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

/** A caller's copy of a logged call, which the log keeps updating. */
const copyCall = (call: EmulatorCall): EmulatorCall => ({ ...call, categories: call.categories && [...call.categories] });

/** Errors outside a vendor route still answer in the format of the API the path belongs to. */
function wireFor(path: string): VendorWire {
  if (path.startsWith("/v1/messages")) return anthropicWire;
  if (path.startsWith("/v1beta/") || GEMINI_PATH.test(path)) return geminiWire;
  return openaiWire;
}

function isHttpError(error: unknown): error is { status: number } {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === "number" && status >= 400 && status < 600;
}
