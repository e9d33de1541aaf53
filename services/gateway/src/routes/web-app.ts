import { existsSync } from "node:fs";
import { resolve } from "node:path";
import express, { Router } from "express";
import { isClientRoute, SHARED_PAGE_PREFIX } from "@sd/contracts";
import { labelRoute, routeLabel, UNMATCHED_ROUTE } from "../http/observability";

/**
 * Serves the built React app: index.html for every client route (SPA fallback) with 200, and for
 * any other GET the same index.html — whose router renders the not-found page — with 404, so a
 * mistyped link, a missing asset or a monitor sees a real "not found".
 */
export function webAppRoutes(distDir: string): Router {
  const router = Router();
  const root = resolve(distDir);
  const index = resolve(root, "index.html");
  if (!existsSync(index)) {
    router.get("/", routeLabel("/"), (_req, res) => {
      res.type("text").send("Smart Decision API is running. Build the web app with `npm run build -w web` to serve it here.");
    });
    return router;
  }
  // Labelled only when a file is served; a miss falls through to the pages.
  router.use(express.static(root, { index: false, maxAge: "1h", setHeaders: (res) => labelRoute(res as express.Response, "web app asset") }));
  router.get(/^\/(?!api\/|v1\/|socket\.io\/).*/, (req, res) => {
    const page = isClientRoute(req.path);
    labelRoute(res, page ? "web app page" : UNMATCHED_ROUTE);
    // A shared decision's page is public to whoever has the link, never to search engines.
    if (req.path.startsWith(SHARED_PAGE_PREFIX)) res.set("X-Robots-Tag", "noindex");
    res.status(page ? 200 : 404).sendFile(index);
  });
  return router;
}
