import type { RequestHandler, Response, Router } from "express";
import type { Logger } from "@sd/telemetry";
import { toHttpError } from "../http/errors";
import { API_KEY_HEADER, toOpenAiError } from "@sd/contracts";
import { ENDPOINTS } from "@sd/contracts/endpoints";
import { readIdempotencyKey } from "../api-keys/idempotency";
import { currentApiKey } from "../api-keys/middleware";
import { EndpointRouter } from "../http/endpoint-router";
import type { ChatCompletionInput, ChatCompletionUseCases } from "../use-cases/chat-completions";
import type { DecisionUseCases } from "../use-cases/decisions";
import { DomainError } from "../use-cases/errors";
import { admission } from "./decisions";

/**
 * Every error of these routes, whoever answers it (the key check, the limits, the body reader, the
 * error handler), in OpenAI's shape: OpenAI clients read `error.message` and would show nothing else.
 */
const openAiErrorShape: RequestHandler = (_req, res, next) => {
  const send = res.json.bind(res);
  res.json = (body: unknown) => {
    const detail = (body as { detail?: unknown } | null)?.detail;
    if (res.statusCode < 400 || typeof detail !== "string") return send(body);
    const { param, code } = (res.locals.domainError as DomainError | undefined)?.details ?? {};
    return send(toOpenAiError(res.statusCode, detail, { param, code }));
  };
  next();
};

/** OpenAI clients send their key as `Authorization: Bearer <key>`; here it is read as the SD-API-KEY it is. */
export const bearerApiKey: RequestHandler = (req, _res, next) => {
  const bearer = /^Bearer\s+(\S+)$/i.exec(req.get("authorization") ?? "")?.[1];
  if (bearer && req.get(API_KEY_HEADER) === undefined) req.headers[API_KEY_HEADER.toLowerCase()] = bearer;
  next();
};

/** Fires when the client closes the connection before the answer is sent in full. */
export function clientGone(res: Response): AbortSignal {
  const controller = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  return controller.signal;
}

/** Keeps a use case's error for openAiErrorShape (its `param` and `code`), then lets the error handler answer it. */
const keepDomainError = <T>(handler: () => Promise<T>, res: Parameters<RequestHandler>[1]): Promise<T> =>
  handler().catch((error: unknown) => {
    if (error instanceof DomainError) res.locals.domainError = error;
    throw error;
  });

/**
 * Server-Sent Events as OpenAI streams them: `data: <chunk>` per event, then `data: [DONE]`. Bad
 * input is refused before the first event (with its status); a failure after it is an error event,
 * which OpenAI's SDKs raise as an APIError.
 */
async function streamCompletion(chat: ChatCompletionUseCases, input: ChatCompletionInput, res: Response, logger: Logger): Promise<void> {
  const send = (data: unknown) => res.write(`data: ${JSON.stringify(data)}\n\n`);
  try {
    await chat.stream(input, (chunk) => {
      if (!res.headersSent) res.status(200).set({ "Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-cache", "X-Accel-Buffering": "no" }).flushHeaders();
      send(chunk);
    });
  } catch (error) {
    if (!res.headersSent) throw error;
    const { status, detail } = toHttpError(error, logger);
    send(toOpenAiError(status, detail));
  }
  res.end("data: [DONE]\n\n");
}

export interface OpenAiRouteDeps {
  chat: ChatCompletionUseCases;
  decisions: DecisionUseCases;
  keyAccess: RequestHandler;
  /** The key's monthly spend limit (402): a completion starts a decision. */
  spendLimit: RequestHandler;
  byteLimit: RequestHandler;
  imageBody: RequestHandler;
  logger: Logger;
}

/** `/v1/chat/completions` and `/v1/models`: the ensemble for OpenAI clients, a thin adapter over the decision use cases. */
export function openAiRoutes({ chat, decisions, keyAccess, spendLimit, byteLimit, imageBody, logger }: OpenAiRouteDeps): Router {
  return new EndpointRouter("/v1", { "api-key": keyAccess })
    .mount(ENDPOINTS.createChatCompletion, {
      before: [openAiErrorShape, bearerApiKey, admission(decisions), byteLimit],
      after: [spendLimit],
      bodyReader: imageBody,
      handler: ({ body, req, res }) =>
        keepDomainError(async () => {
          const key = currentApiKey(res);
          const input = {
            request: body,
            requester: { ip: req.ip ?? null, user: { id: key.user_id, email: key.created_by }, apiKeyId: key.id },
            idempotencyKey: readIdempotencyKey(req),
            signal: clientGone(res),
          };
          if (body.stream === true) return streamCompletion(chat, input, res, logger);
          return { status: 200 as const, body: await chat.complete(input) };
        }, res),
    })
    .mount(ENDPOINTS.listChatModels, {
      before: [openAiErrorShape, bearerApiKey],
      handler: async ({ res }) => ({ status: 200, body: await chat.models(currentApiKey(res).user_id) }),
    }).router;
}
