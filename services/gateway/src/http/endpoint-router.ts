import { Router, type Request, type RequestHandler, type Response } from "express";
import type { z } from "zod";
import type { Access, Endpoint } from "@sd/contracts/endpoints";
import { smallJsonBody } from "./json-body";
import { routeLabel } from "./observability";
import { parseBody, parseParams, parseQuery } from "./validate";

type SchemaOutput<T> = T extends z.ZodType ? z.output<T> : undefined;
type JsonBodyOf<E> = E extends { body: { contentType: "multipart/form-data" } } ? undefined : E extends { body: { schema: infer S } } ? SchemaOutput<S> : undefined;
type SuccessStatus = 200 | 201 | 202;
type SuccessOf<E extends Endpoint> = Extract<keyof E["responses"], SuccessStatus>;
type AnswerBody<R> = R extends { body?: { schema: infer S } } ? SchemaOutput<S> : undefined;

/** A success answer the endpoint documents: its status, and a body of that status's schema. */
export type Answer<E extends Endpoint> = {
  [S in SuccessOf<E>]: { status: S; body: AnswerBody<E["responses"][S]>; headers?: Readonly<Record<string, string>> };
}[SuccessOf<E>];

/** What a handler gets: the request's parts parsed by the endpoint's schemas, and the raw exchange. */
export interface EndpointInput<E extends Endpoint> {
  body: JsonBodyOf<E>;
  query: E extends { query: infer Q } ? SchemaOutput<Q> : undefined;
  params: E extends { params: infer P } ? SchemaOutput<P> : undefined;
  req: Request;
  res: Response;
}

export interface MountOptions<E extends Endpoint> {
  /** Run before authentication: the checks that must refuse first and cheapest (in-flight limit, per-IP limits). */
  before?: RequestHandler[];
  /** Run after authentication, before the body is read (per-user limits, the admin check). */
  after?: RequestHandler[];
  /** The JSON body reader (default: the 100 KB one); multipart endpoints read their own. */
  bodyReader?: RequestHandler;
  /** Run after the body is read, before the handler (limits keyed by what the body says). */
  afterBody?: RequestHandler[];
  /** The handler validates the body itself (an answer shape of its own for bad input). */
  rawBody?: boolean;
  /** Answers with the endpoint's documented success, or writes the response itself and returns nothing. */
  handler(input: EndpointInput<E>): Promise<Answer<E> | void> | Answer<E> | void;
}

/** The middleware that admits each kind of caller; a public endpoint has none. */
export type AccessGuards = Partial<Record<Exclude<Access, "public">, RequestHandler>>;

/** `/api/image-assets/{id}` under the prefix `/api` as express writes it: `/image-assets/:id`. */
function routePath(prefix: string, path: string): string {
  if (prefix !== "" && !path.startsWith(`${prefix}/`)) throw new Error(`${path} is not under ${prefix}`);
  return path.slice(prefix.length).replace(/\{(\w+)\}/g, ":$1");
}

/**
 * Mounts routes from their endpoint definitions: the method and path, the guard of the endpoint's
 * access, then the body read and parsed, the query and path parameters parsed, and the handler's
 * answer sent. The order puts every check that can refuse a request unread before its body.
 */
export class EndpointRouter {
  readonly router = Router();

  constructor(
    /** Where the router is mounted (`/api`, `/v1`, or "" for the root). */
    private readonly prefix: string,
    private readonly guards: AccessGuards = {},
  ) {}

  mount<E extends Endpoint>(endpoint: E, options: MountOptions<E>): this {
    const guard = endpoint.access === "public" ? undefined : this.guards[endpoint.access];
    if (endpoint.access !== "public" && !guard) throw new Error(`${endpoint.operationId}: no guard for ${endpoint.access} access`);
    const jsonBody = endpoint.body !== undefined && endpoint.body.contentType !== "multipart/form-data";
    const handlers: RequestHandler[] = [
      routeLabel(endpoint.path),
      ...(options.before ?? []),
      ...(guard ? [guard] : []),
      ...(options.after ?? []),
      ...(jsonBody ? [options.bodyReader ?? smallJsonBody] : []),
      ...(options.afterBody ?? []),
      async (req, res) => {
        const input = {
          body: jsonBody && !options.rawBody ? parseBody(endpoint.body!.schema, req, { optional: endpoint.method === "delete" }) : undefined,
          query: endpoint.query ? parseQuery(endpoint.query, req) : undefined,
          params: endpoint.params ? parseParams(endpoint.params, req) : undefined,
          req,
          res,
        } as EndpointInput<E>;
        const answer = await options.handler(input);
        if (!answer) return;
        if (answer.headers) res.set(answer.headers);
        res.status(answer.status as number).json(answer.body);
      },
    ];
    this.router[endpoint.method](routePath(this.prefix, endpoint.path), ...handlers);
    return this;
  }
}
