import { randomUUID } from "node:crypto";
import type { RequestHandler, Response } from "express";
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

/** Paths answered too often (probes, scrapes) to be worth a line each. */
const UNLOGGED_PATHS = new Set(["/health", "/ready", "/metrics"]);
const REQUEST_ID = /^[\w-]{1,100}$/;

/**
 * One concise line per request, never with the headers (they carry credentials); query values are
 * redacted, and a proxy's X-Request-Id is kept and echoed. Not pino-http: its three child loggers per
 * request cost as much CPU as the cheapest route.
 */
export function requestLogging(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const incoming = req.headers["x-request-id"];
    const requestId = typeof incoming === "string" && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    res.setHeader("x-request-id", requestId);
    if (UNLOGGED_PATHS.has(req.url)) return next();

    const started = Date.now();
    let decisionId: string | undefined;
    // The decision id is in the JSON answer of the routes that make or show a decision.
    const json = res.json;
    res.json = function jsonNotingDecisionId(this: Response, body: unknown) {
      const id = (body as { decision_id?: unknown } | null)?.decision_id;
      if (typeof id === "string") decisionId = id;
      return json.call(this, body);
    };
    const done = (): void => {
      res.off("finish", done);
      res.off("close", done);
      const ms = Date.now() - started;
      const fields = decisionId === undefined ? { request_id: requestId, duration_ms: ms } : { request_id: requestId, decision_id: decisionId, duration_ms: ms };
      const request = `${req.method} ${loggablePath(req.originalUrl)}`;
      if (!res.writableFinished) logger.info(fields, `${request} closed by the client after ${ms}ms`);
      else if (res.statusCode >= 500) logger.error(fields, `${request} ${res.statusCode}`);
      else logger.info(fields, `${request} ${res.statusCode} ${ms}ms`);
    };
    res.on("finish", done);
    res.on("close", done);
    next();
  };
}

/** The `route` label of a request no route matched: one label, so scanners cannot grow the series. */
export const UNMATCHED_ROUTE = "unmatched";

/** Names the matched route for the HTTP metrics as it matches, so an error answered later by the error handler keeps it. */
export function labelRoute(res: Response, template: string): void {
  res.locals.route = template;
}

/** Middleware form of `labelRoute`. */
export const routeLabel =
  (template: string): RequestHandler =>
  (_req, res, next) => {
    labelRoute(res, template);
    next();
  };

/** HTTP latency by route template (not raw URL, to keep label cardinality bounded). */
export function httpMetrics(): RequestHandler {
  return (req, res, next) => {
    const end = httpDuration.startTimer();
    res.on("finish", () => {
      const route = typeof res.locals.route === "string" ? res.locals.route : UNMATCHED_ROUTE;
      end({ method: req.method, route, status: String(res.statusCode) });
    });
    next();
  };
}
