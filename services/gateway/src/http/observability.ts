import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Request, RequestHandler, Response } from "express";
import { pinoHttp } from "pino-http";
import { httpDuration, type Logger } from "@sd/telemetry";

/** Query parameters whose values say nothing about anyone (paging, sorting, periods); every other value is redacted. */
const PLAIN_QUERY_PARAMS = new Set(["limit", "offset", "page", "period", "sort", "order"]);
const REDACTED = "[redacted]";

/**
 * The request's path for the log: the query keeps its parameter names but not their values —
 * sign-in tokens, OAuth codes and search text travel there — except harmless paging ones.
 */
export function loggablePath(url: string): string {
  const parsed = new URL(url, "http://log.invalid");
  if (parsed.search === "") return parsed.pathname;
  const query = [...parsed.searchParams.entries()].map(([name, value]) => `${encodeURIComponent(name)}=${PLAIN_QUERY_PARAMS.has(name) ? encodeURIComponent(value) : REDACTED}`);
  return `${parsed.pathname}?${query.join("&")}`;
}

/** Where a response's decision id waits for the log line (read from the JSON answer that names it). */
const decisionIds = new WeakMap<ServerResponse, string>();

/** Notes `decision_id` of a JSON answer (decisions, /v1 status) so its request's log line names the decision. */
function rememberDecisionId(res: Response): void {
  const json = res.json.bind(res);
  res.json = (body: unknown) => {
    const id = (body as { decision_id?: unknown } | null)?.decision_id;
    if (typeof id === "string") decisionIds.set(res, id);
    return json(body);
  };
}

/**
 * One concise line per request — method, path (query values redacted), status, duration, request
 * id and, for decisions, the decision id — and never the headers, which carry credentials and
 * make every line kilobytes long. The request id is taken from X-Request-Id when a proxy sets
 * one, and echoed back.
 */
export function requestLogging(logger: Logger): RequestHandler {
  const log = pinoHttp({
    logger,
    genReqId: (req, res) => {
      const incoming = req.headers["x-request-id"];
      const id = typeof incoming === "string" && /^[\w-]{1,100}$/.test(incoming) ? incoming : randomUUID();
      res.setHeader("x-request-id", id);
      return id;
    },
    autoLogging: { ignore: (req) => req.url === "/health" || req.url === "/ready" || req.url === "/metrics" },
    // The whole line is built by customProps and the message: no req/res objects, so no headers.
    serializers: { req: () => undefined, res: () => undefined, responseTime: () => undefined },
    wrapSerializers: false,
    // req.log (and so this line) carries the request id under `request_id`.
    quietReqLogger: true,
    customAttributeKeys: { reqId: "request_id", responseTime: "duration_ms" },
    customProps: (_req: IncomingMessage, res: ServerResponse) => {
      const decisionId = decisionIds.get(res);
      return decisionId ? { decision_id: decisionId } : {};
    },
    customSuccessMessage: (req, res, ms) => `${req.method} ${loggablePath((req as Request).originalUrl)} ${res.statusCode} ${Math.round(ms)}ms`,
    customErrorMessage: (req, res) => `${req.method} ${loggablePath((req as Request).originalUrl)} ${res.statusCode}`,
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? "error" : "info"),
  });
  return (req, res, next) => {
    rememberDecisionId(res);
    log(req, res, next);
  };
}

/** HTTP latency by route pattern (not raw URL, to keep label cardinality bounded). */
export function httpMetrics(): RequestHandler {
  return (req, res, next) => {
    const end = httpDuration.startTimer();
    res.on("finish", () => {
      const route = (req.route as { path?: string } | undefined)?.path ?? "unmatched";
      end({ method: req.method, route: `${req.baseUrl}${route}`, status: String(res.statusCode) });
    });
    next();
  };
}
