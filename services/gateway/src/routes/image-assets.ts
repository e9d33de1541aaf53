import type { ErrorRequestHandler, RequestHandler, Response, Router } from "express";
import { ENDPOINTS } from "@sd/contracts/endpoints";
import type { Logger } from "@sd/telemetry";
import { currentUser } from "../auth";
import { toHttpError } from "../http/errors";
import { EndpointRouter } from "../http/endpoint-router";
import { closeIfBodyUnread } from "../http/unread-body";
import { writer, type AssetCaller, type ImageAssetUseCases } from "../use-cases/image-assets";

const callerOf = (res: Response): AssetCaller => {
  const user = currentUser(res);
  return user ? { userId: user.userId } : null;
};

/**
 * The image-asset API, with an optional bearer token whose user is always the owner (see
 * ImageAssetUseCases). A write without a token is refused before its body is read.
 */
export function imageAssetRoutes(assets: ImageAssetUseCases, optionalUser: RequestHandler, imageBody: RequestHandler): Router {
  const requireWriter: RequestHandler = (_req, res, next) => {
    writer(callerOf(res));
    next();
  };
  return (
    new EndpointRouter("/api", { "optional-bearer": optionalUser })
      .mount(ENDPOINTS.storeImageAsset, {
        after: [requireWriter],
        bodyReader: imageBody,
        handler: async ({ body, res }) => ({ status: 201, body: await assets.storeImageAsset(callerOf(res), body) }),
      })
      // The decision/ and user/ routes come before /{id}, which would otherwise read "decision" as an id.
      .mount(ENDPOINTS.listDecisionImageAssets, {
        handler: async ({ params, query, res }) => ({ status: 200, body: await assets.listForDecision(callerOf(res), params.id, query.user_id) }),
      })
      .mount(ENDPOINTS.listMyImageAssets, {
        handler: async ({ params, query, res }) => ({ status: 200, body: await assets.listForUser(callerOf(res), [params.userId, query.user_id], query.limit) }),
      })
      .mount(ENDPOINTS.getImageAsset, {
        handler: async ({ params, query, res }) => ({ status: 200, body: await assets.get(callerOf(res), params.id, query.user_id) }),
      })
      .mount(ENDPOINTS.deleteDecisionImageAssets, {
        after: [requireWriter],
        handler: async ({ params, body, res }) => ({ status: 200, body: await assets.deleteForDecision(callerOf(res), params.id, body.user_id) }),
      })
      .mount(ENDPOINTS.deleteImageAsset, {
        after: [requireWriter],
        handler: async ({ params, body, res }) => ({ status: 200, body: await assets.delete(callerOf(res), params.id, body.user_id) }),
      }).router
  );
}

/**
 * Error handler for everything under /api/image-assets (mounted there, before the app's own):
 * failures answer `{success: false, message, imageAssets: [], total: 0}`
 * with the status the app's handler would give, including for a bad token, an unreadable or
 * oversized body and an unknown path. Unexpected errors are logged and hidden behind a 500.
 */
export function imageAssetFailures(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    const { status, detail } = toHttpError(error, logger);
    if (res.headersSent) return;
    closeIfBodyUnread(req, res);
    res.status(status).json({ success: false, message: detail, imageAssets: [], total: 0 });
  };
}
