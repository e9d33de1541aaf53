import { z } from "zod";
import {
  MESSAGES,
  ErrorResponseSchema,
  V1_HEADERS,
} from "../index";
import {
  EXAMPLE_IDS,
  exampleErrors,
} from "./examples";
import type { Access, DocumentedExample, DocumentedBody, DocumentedResponse } from "./define";

// ---------------------------------------------------------------- shared pieces

export const json = <S extends z.ZodType>(schema: S, examples: Record<string, DocumentedExample>): DocumentedBody<S> => ({ schema, examples });
export const one = (summary: string, value: unknown): Record<string, DocumentedExample> => ({ example: { summary, value } });

export const error = (description: string, examples: Record<string, DocumentedExample>, headers?: z.ZodObject): DocumentedResponse => ({
  description,
  body: json(ErrorResponseSchema, examples),
  ...(headers ? { headers } : {}),
});

export const RATE_LIMIT_HEADERS = z.object({
  "RateLimit-Policy": z.string().meta({
    description: "The limit that applies (IETF draft-ietf-httpapi-ratelimit-headers-08): `q` requests per `w` seconds, counted per partition key `pk`.",
    example: '"60-in-1min"; q=60; w=60; pk=:ZjMxYWM0NTBlMTU5:',
  }),
  RateLimit: z.string().meta({
    description: "What is left of it: `r` requests for the next `t` seconds.",
    example: '"60-in-1min"; r=59; t=60',
  }),
});

export const REPLAY_HEADERS = RATE_LIMIT_HEADERS.extend({
  "Idempotent-Replayed": z
    .literal("true")
    .optional()
    .meta({ description: `Sent when the ${V1_HEADERS.idempotencyKey} was seen before: this is the first request's decision.`, example: "true" }),
});

export const ACCEPTED_HEADERS = REPLAY_HEADERS.extend({
  Location: z.string().meta({ description: "Where to poll: the same as `status_url`.", example: `/v1/decisions/${EXAMPLE_IDS.decision}` }),
  "Preference-Applied": z.literal(V1_HEADERS.respondAsync).meta({ description: "The `Prefer` preference that was honoured (RFC 7240).", example: V1_HEADERS.respondAsync }),
});

export const RETRY_AFTER_HEADERS = RATE_LIMIT_HEADERS.extend({
  "Retry-After": z.string().meta({ description: "Seconds to wait before the next request (for the monthly quota: until the first day of next month, UTC).", example: "42" }),
});

export const tooManyRequests = error("Too many requests from this address or account: wait as Retry-After says.", one("Rate limited", exampleErrors.tooManyRequests), RETRY_AFTER_HEADERS);

export const unauthorized = error("Missing, malformed, expired or revoked bearer token.", one("Bad token", exampleErrors.invalidCredentials));

export const idParam = (description: string) => z.object({ id: z.string().meta({ description, example: EXAMPLE_IDS.decision }) });

/** Every decision route refuses a new decision at once while its gateway has too many in flight. */
export const busy = error(
  "Too many decisions are in flight on this server: nothing was started; retry after Retry-After seconds.",
  one("Busy", { detail: MESSAGES.overloaded }),
  z.object({ "Retry-After": z.string().meta({ description: "Seconds to wait before sending the decision again.", example: "2" }) }),
);

export const storeFull = error("The store's disk is full: decisions are refused at once until there is room again (/ready says why).", one("Disk full", { detail: MESSAGES.cannotStore }));

export function decisionErrors(access: Access): Record<number, DocumentedResponse> {
  const errors: Record<number, DocumentedResponse> = {
    400: error("The request is invalid: `detail` says what to fix (the web app also shows `title`).", {
      questionRequired: { summary: "No question", value: exampleErrors.questionRequired },
      categoriesRequired: { summary: "Fewer than 2 categories", value: exampleErrors.categoriesRequired },
    }),
  };
  if (access === "bearer") errors[401] = unauthorized;
  return {
    ...errors,
    409: error("The request_id was already used: send a new UUID for each decision.", one("Reused request_id", exampleErrors.requestIdReused)),
    413: error("The images are too large.", one("Images too large", exampleErrors.imagesTooLarge)),
    429: tooManyRequests,
    503: busy,
    504: error("The models took too long; the decision still completes and is stored.", one("Timed out", exampleErrors.timedOut)),
    507: storeFull,
  };
}
