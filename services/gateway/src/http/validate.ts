import type { Request } from "express";
import type { z } from "zod";
import { fromValidation, HttpError } from "./errors";

/** Parses a JSON body with a contract schema; failures become the specification's messages. */
export function parseBody<S extends z.ZodType>(schema: S, req: Request, options: { optional?: boolean } = {}): z.infer<S> {
  // A DELETE may come without a body at all; with `optional` that reads as an empty object.
  const body: unknown = options.optional && (req.body === undefined || req.body === null) ? {} : req.body;
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new HttpError(400, "Send a JSON object with Content-Type: application/json.");
  }
  const result = schema.safeParse(body);
  if (!result.success) throw fromValidation(result.error);
  return result.data;
}

/**
 * Names that an "extended" query parser (qs) would turn into nested objects or operators:
 * `category[$ne]=x`, `a.b=c`, `$where=...`. Express 5's simple parser keeps them as literal names,
 * which a schema would silently drop; they are refused instead, so such a request can never be
 * mistaken for a filter that was applied.
 */
const NESTED_OR_OPERATOR_NAME = /[[\].$]/;

/**
 * Parses a query string with a contract schema. Express 5 gives each parameter as one string, or
 * an array of strings when it is repeated; the schema accepts single strings only, so a repeated
 * parameter is a 400 like any other bad value.
 */
export function parseQuery<S extends z.ZodType>(schema: S, req: Request): z.infer<S> {
  const query = req.query as Record<string, unknown>;
  for (const name of Object.keys(query)) {
    if (NESTED_OR_OPERATOR_NAME.test(name)) {
      throw new HttpError(400, `The query parameter ${JSON.stringify(name)} is not allowed: send plain names, each with one value.`);
    }
  }
  const result = schema.safeParse({ ...query });
  if (!result.success) throw fromValidation(result.error);
  return result.data;
}

/** Parses path parameters with a contract schema (express gives each as one decoded string). */
export function parseParams<S extends z.ZodType>(schema: S, req: Request): z.infer<S> {
  const result = schema.safeParse({ ...req.params });
  if (!result.success) throw fromValidation(result.error);
  return result.data;
}
