export { buildOpenApiDocument, SECURITY_SCHEMES, type OpenApiDocument } from "./document";
export { OPERATIONS, TAGS, type DocumentedOperation, type DocumentedBody, type DocumentedResponse, type HttpMethod } from "./operations";
export { openApiRoutes, DOCS_CSP } from "./routes";
