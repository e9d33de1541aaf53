import { existsSync } from "node:fs";
import { resolve } from "node:path";
import express, { Router } from "express";

/** Serves the built React app, with index.html for every client route (SPA fallback). */
export function webAppRoutes(distDir: string): Router {
  const router = Router();
  const root = resolve(distDir);
  const index = resolve(root, "index.html");
  if (!existsSync(index)) {
    router.get("/", (_req, res) => {
      res.type("text").send("Smart Decision API is running. Build the web app with `npm run build -w web` to serve it here.");
    });
    return router;
  }
  router.use(express.static(root, { index: false, maxAge: "1h" }));
  router.get(/^\/(?!api\/|v1\/|socket\.io\/).*/, (_req, res) => {
    res.sendFile(index);
  });
  return router;
}
