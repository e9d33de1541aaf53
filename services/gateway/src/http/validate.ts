import type { Request } from "express";
import type { z } from "zod";
import { fromValidation, HttpError } from "./errors";

/** Parses a JSON body with a contract schema; failures become the specification's messages. */
export function parseBody<S extends z.ZodType>(schema: S, req: Request): z.infer<S> {
  if (typeof req.body !== "object" || req.body === null || Array.isArray(req.body)) {
    throw new HttpError(400, "Send a JSON object with Content-Type: application/json.");
  }
  const result = schema.safeParse(req.body);
  if (!result.success) throw fromValidation(result.error);
  return result.data;
}
