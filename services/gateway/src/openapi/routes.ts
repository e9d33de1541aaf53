import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Router, type RequestHandler } from "express";
import { routeLabel } from "../http/observability";
import { buildOpenApiDocument } from "./document";

/** Where swagger-ui-dist's prebuilt files are (served from node_modules: no CDN, the reference works offline). */
const SWAGGER_UI_DIR = dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));

/** The swagger-ui-dist files the page loads, by the name it asks for. Nothing else of the package is served. */
const ASSETS: Record<string, { file: string; type: string }> = {
  "swagger-ui.css": { file: "swagger-ui.css", type: "text/css" },
  "swagger-ui-bundle.js": { file: "swagger-ui-bundle.js", type: "text/javascript" },
  "favicon-32x32.png": { file: "favicon-32x32.png", type: "image/png" },
};

/**
 * The reference page's own Content-Security-Policy, stricter than the site's: its own script and
 * stylesheet files only (React sets Swagger UI's element styles through the DOM, which CSP allows),
 * data: images for the icons in Swagger UI's stylesheet, and requests to this origin only (the
 * document and "Try it out" calls).
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

const docsCsp: RequestHandler = (_req, res, next) => {
  // Replaces the site-wide policy helmet set earlier for these responses only.
  res.setHeader("Content-Security-Policy", DOCS_CSP);
  next();
};

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Smart Decision API reference</title>
    <link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png" />
    <link rel="stylesheet" href="/docs/assets/swagger-ui.css" />
  </head>
  <body>
    <noscript>The interactive reference needs JavaScript. The OpenAPI document is at <a href="/openapi.json">/openapi.json</a>.</noscript>
    <div id="swagger-ui"></div>
    <script src="/docs/assets/swagger-ui-bundle.js"></script>
    <script src="/docs/init.js"></script>
  </body>
</html>
`;

/** Starts Swagger UI on the document (a file, not an inline script, so the CSP needs no 'unsafe-inline' for scripts). */
const INIT = `window.addEventListener("load", function () {
  window.ui = SwaggerUIBundle({
    url: "/openapi.json",
    dom_id: "#swagger-ui",
    deepLinking: true,
    // The public validator badge would call swagger.io: the reference must work offline.
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
    defaultModelsExpandDepth: 0,
    displayRequestDuration: true,
  });
});
`;

/**
 * GET /openapi.json: the OpenAPI 3.1 document, generated once from the zod contracts.
 * GET /docs: the interactive reference (Swagger UI from swagger-ui-dist, served locally).
 */
export function openApiRoutes(): Router {
  const document = JSON.stringify(buildOpenApiDocument());
  const router = Router();

  router.get("/openapi.json", routeLabel("/openapi.json"), (_req, res) => {
    res.type("application/json").send(document);
  });

  router.get("/docs", routeLabel("/docs"), docsCsp, (_req, res) => {
    res.type("html").send(PAGE);
  });

  router.get("/docs/init.js", routeLabel("/docs/init.js"), docsCsp, (_req, res) => {
    res.type("text/javascript").send(INIT);
  });

  router.get("/docs/assets/:name", routeLabel("/docs/assets/{name}"), docsCsp, (req, res, next) => {
    const asset = ASSETS[req.params.name as string];
    if (!asset) return next();
    res.type(asset.type);
    res.sendFile(join(SWAGGER_UI_DIR, asset.file), { maxAge: "1d" });
  });

  return router;
}
