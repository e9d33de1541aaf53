import type { RequestHandler, Router } from "express";
import { EXPORT_MEDIA_TYPES, exportFileName, EXPORT_FORMATS } from "@sd/contracts";
import { ENDPOINTS } from "@sd/contracts/endpoints";
import { signedInUser } from "../auth";
import { sendChunks } from "../http/download-stream";
import { EndpointRouter } from "../http/endpoint-router";
import type { HistoryExportUseCases } from "../use-cases/history-export";

const ENDPOINT_OF = { csv: ENDPOINTS.exportMyDecisionsCsv, json: ENDPOINTS.exportMyDecisionsJson } as const;

/** The signed-in user's filtered history as a CSV or JSON download (bearer). */
export function historyExportRoutes(exports: HistoryExportUseCases, requireUser: RequestHandler): Router {
  const router = new EndpointRouter("/api", { bearer: requireUser });
  for (const format of EXPORT_FORMATS) {
    router.mount(ENDPOINT_OF[format], {
      handler: async ({ query, res }) =>
        sendChunks(res, exports.export(signedInUser(res).userId, query, format), {
          "Content-Type": EXPORT_MEDIA_TYPES[format],
          "Content-Disposition": `attachment; filename="${exportFileName(format, new Date())}"`,
        }),
    });
  }
  return router.router;
}
