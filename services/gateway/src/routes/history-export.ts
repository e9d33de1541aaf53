import { once } from "node:events";
import type { RequestHandler, Response, Router } from "express";
import { EXPORT_MEDIA_TYPES, exportFileName, EXPORT_FORMATS, type ExportFormat } from "@sd/contracts";
import { ENDPOINTS } from "@sd/contracts/endpoints";
import { signedInUser } from "../auth";
import { EndpointRouter } from "../http/endpoint-router";
import type { HistoryExportUseCases } from "../use-cases/history-export";

const ENDPOINT_OF = { csv: ENDPOINTS.exportMyDecisionsCsv, json: ENDPOINTS.exportMyDecisionsJson } as const;

/**
 * Writes the chunks as the client takes them (waiting for 'drain', so a slow download never piles up
 * in memory). The headers go out with the first chunk: a store failure before it is an ordinary
 * error answer; one after it cuts the connection, so a truncated file never looks complete.
 */
async function send(res: Response, format: ExportFormat, chunks: AsyncIterable<string>): Promise<void> {
  const iterator = chunks[Symbol.asyncIterator]();
  let next = await iterator.next();
  res.status(200).set({
    "Content-Type": EXPORT_MEDIA_TYPES[format],
    "Content-Disposition": `attachment; filename="${exportFileName(format, new Date())}"`,
    "Cache-Control": "no-store",
  });
  try {
    while (!next.done) {
      if (res.destroyed) return void (await iterator.return?.());
      if (!res.write(next.value)) await Promise.race([once(res, "drain"), once(res, "close")]);
      next = await iterator.next();
    }
    res.end();
  } catch (error) {
    res.destroy(error as Error);
  }
}

/** The signed-in user's filtered history as a CSV or JSON download (bearer). */
export function historyExportRoutes(exports: HistoryExportUseCases, requireUser: RequestHandler): Router {
  const router = new EndpointRouter("/api", { bearer: requireUser });
  for (const format of EXPORT_FORMATS) {
    router.mount(ENDPOINT_OF[format], {
      handler: async ({ query, res }) => send(res, format, exports.export(signedInUser(res).userId, query, format)),
    });
  }
  return router.router;
}
