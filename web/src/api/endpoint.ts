import { endpointMethod, endpointPath, type Endpoint } from "@sd/contracts/endpoints";
import type { z } from "zod";
import { authorizedRequest, type AuthorizationSource } from "./authorized";
import { apiRequest, type ApiRequest } from "./client";

/** The endpoint's success answer: 200, else 201, else 202 (the status its route answers when it goes well). */
type SuccessResponse<E extends Endpoint> = 200 extends keyof E["responses"]
  ? E["responses"][200]
  : 201 extends keyof E["responses"]
    ? E["responses"][201]
    : 202 extends keyof E["responses"]
      ? E["responses"][202]
      : never;

/** The zod schema of the endpoint's success answer. */
export type SuccessSchema<E extends Endpoint> = SuccessResponse<E> extends { body: { schema: infer S extends z.ZodType } } ? S : never;

/** What a call of the endpoint resolves to: its success answer as the schema parses it. */
export type EndpointResult<E extends Endpoint> = z.output<SuccessSchema<E>>;

type Scalar = string | number | boolean | undefined;

/** Path parameters by the names the endpoint's params schema declares (all required). */
type ParamsPart<E extends Endpoint> = E extends { params: infer P extends z.ZodObject } ? { params: { readonly [K in keyof z.output<P>]: string } } : { params?: undefined };

/** Query parameters by the names the endpoint's query schema declares; the server parses their text. */
type QueryPart<E extends Endpoint> = E extends { query: infer Q extends z.ZodObject } ? { query?: { readonly [K in keyof z.input<Q>]?: Scalar } } : { query?: undefined };

/** The body as the endpoint's schema accepts it; a multipart endpoint takes a FormData. */
type BodyPart<E extends Endpoint> = E extends { body: infer B }
  ? B extends { contentType: "multipart/form-data" }
    ? { body: FormData }
    : B extends { schema: infer S extends z.ZodType }
      ? { body: z.input<S> }
      : never
  : { body?: undefined };

/** One call's parameters, typed by the endpoint; `init` adds fetch options (e.g. a bearer header). */
export type EndpointRequest<E extends Endpoint> = ParamsPart<E> & QueryPart<E> & BodyPart<E> & { init?: RequestInit };

/** A bearer endpoint needs the session; an optional-bearer one takes it when there is one; the others none. */
type SessionArgs<E extends Endpoint> = E["access"] extends "bearer"
  ? [session: AuthorizationSource]
  : E["access"] extends "optional-bearer"
    ? [session?: AuthorizationSource]
    : [];

/** The untyped view of a request, for the one place that reads it. */
interface AnyRequest {
  params?: Readonly<Record<string, string>>;
  query?: Record<string, Scalar>;
  body?: unknown;
  init?: RequestInit;
}

/** The schema of the endpoint's success answer; an endpoint without a JSON one cannot be called this way. */
export function successSchema<E extends Endpoint>(endpoint: E): SuccessSchema<E> {
  const schema = (endpoint.responses[200] ?? endpoint.responses[201] ?? endpoint.responses[202])?.body?.schema;
  if (!schema) throw new Error(`${endpoint.operationId} has no JSON success answer`);
  return schema as SuccessSchema<E>;
}

/**
 * The path and `apiRequest` options of a call: method and path (params filled and encoded) from the
 * endpoint's definition, the answer checked against its success schema. For a caller that
 * authorizes the call its own way (logout sends a token it already holds, without a refresh).
 */
export function endpointRequest<E extends Endpoint>(endpoint: E, request: EndpointRequest<E>): [path: string, request: ApiRequest<SuccessSchema<E>>] {
  const { params, query, body, init } = request as AnyRequest;
  return [endpointPath(endpoint, params), { method: endpointMethod(endpoint), query, body, init, schema: successSchema(endpoint) }];
}

/**
 * Calls an endpoint through the API client, as its definition says: method, path and answer schema
 * from the endpoint, errors as `apiRequest` throws them. A bearer endpoint is called as the session's
 * user (refreshing once on an expired token, see `authorizedRequest`); an optional-bearer one with
 * the token when the session has a valid one and anonymously otherwise; the others anonymously.
 */
export function callEndpoint<E extends Endpoint>(endpoint: E, request: EndpointRequest<E>, ...[session]: SessionArgs<E>): Promise<EndpointResult<E>> {
  const [path, options] = endpointRequest(endpoint, request);
  const asUser = session !== undefined && (endpoint.access === "bearer" || (endpoint.access === "optional-bearer" && Boolean(session.accessToken())));
  return asUser ? authorizedRequest(path, options, session) : apiRequest(path, options);
}
