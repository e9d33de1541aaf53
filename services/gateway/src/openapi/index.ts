export { buildOpenApiDocument, SECURITY_SCHEMES, type OpenApiDocument } from "./document";
export { openApiRoutes, DOCS_CSP } from "./routes";
