import { z } from "zod";
import {
  AUTH_MESSAGES,
  ErrorResponseSchema,
  JOB_APPLICATION_LIMITS,
  JOB_APPLICATION_MESSAGES,
  JobApplicationResponseSchema,
  KNOWN_PROVIDERS,
  ProvidersResponseSchema,
  WaitlistRequestSchema,
  WaitlistResponseSchema,
  WAITLIST_MESSAGES,
} from "../index";
import {
  EXAMPLE_EMAIL,
  EXAMPLE_IDS,
  exampleErrors,
} from "./examples";
import { json, one, error, tooManyRequests } from "./shared";
import { defineEndpoint } from "./define";

// ---------------------------------------------------------------- site

/**
 * The job-application form as it travels (multipart). Its rules are the form's plain functions in
 * libs/contracts (`validateJobApplication`, `targetError`, `resumeError`); this schema describes
 * the fields and their bounds for the reference.
 */
const JobApplicationFormSchema = z.object({
  name: z.string().max(JOB_APPLICATION_LIMITS.maxNameLength).meta({ description: JOB_APPLICATION_MESSAGES.nameRequired }),
  email: z.string().max(JOB_APPLICATION_LIMITS.maxEmailLength).meta({ description: JOB_APPLICATION_MESSAGES.emailRequired }),
  phone: z.string().max(JOB_APPLICATION_LIMITS.maxPhoneLength).meta({ description: "An optional +, a digit 1-9, then up to 15 more digits (spaces, dashes and parentheses are ignored)." }),
  linkedin: z.string().max(JOB_APPLICATION_LIMITS.maxLinkedinLength).meta({ description: "A LinkedIn profile URL." }),
  accomplishment: z.string().max(JOB_APPLICATION_LIMITS.maxAccomplishmentLength).meta({ description: "Most incredible accomplishment, at most 100 characters." }),
  position: z.string().max(JOB_APPLICATION_LIMITS.maxPositionLength),
  department: z.string().max(JOB_APPLICATION_LIMITS.maxDepartmentLength),
  resume: z
    .unknown()
    .optional()
    .meta({ description: "Optional PDF resume, at most 10 MB.", override: { type: "string", format: "binary", contentMediaType: "application/pdf" } }),
});

export const siteEndpoints = [
  defineEndpoint({
    method: "get",
    path: "/api/providers",
    tag: "site",
    operationId: "listProviders",
    summary: "The models a decision may ask",
    description:
      "Every configured model a request's `models` (its panel) may name, the default panel (the playground's rows) and the default judge; `simulated` is true when the provider emulator answers because no vendor key is configured.",
    access: "public",
    responses: {
      200: {
        description: "The models.",
        body: json(
          ProvidersResponseSchema,
          one("Four models, the playground's three by default", {
            providers: (["openai", "gemini", "claude", "gpt5"] as const).map((id) => ({
              id,
              label: KNOWN_PROVIDERS[id].label,
              model: KNOWN_PROVIDERS[id].model,
              simulated: false,
            })),
            default_panel: ["openai", "gemini", "claude"],
            default_judge: "gpt5",
            default_rounds: 3,
          }),
        ),
      },
    },
  }),
  defineEndpoint({
    method: "post",
    path: "/api/email-request",
    tag: "site",
    operationId: "joinWaitlist",
    summary: "Join the waitlist",
    description: "Answers `{success, message}`, also for a refused address (status 400).",
    access: "public",
    body: json(WaitlistRequestSchema, one("An address", { email: EXAMPLE_EMAIL })),
    responses: {
      200: { description: "On the list.", body: json(WaitlistResponseSchema, one("Joined", { success: true, message: WAITLIST_MESSAGES.joined })) },
      // The form's own refusal answers `{success, message}`; a body that is not JSON is refused by the shared body reader, as `{detail}`.
      400: {
        description: "The email is missing or invalid (`{success: false, message}`), or the body is not JSON (`{detail}`).",
        body: json(z.union([WaitlistResponseSchema, ErrorResponseSchema]), one("No email", { success: false, message: AUTH_MESSAGES.emailRequired })),
      },
      429: tooManyRequests,
    },
  }),
  defineEndpoint({
    method: "post",
    path: "/api/job-application",
    tag: "site",
    operationId: "applyForJob",
    summary: "Apply for a position",
    description: "A multipart form; the hiring team is emailed and answers within 2-3 business days.",
    access: "public",
    body: {
      schema: JobApplicationFormSchema,
      contentType: "multipart/form-data",
      examples: one("An application", {
        name: "Ada Lovelace",
        email: EXAMPLE_EMAIL,
        phone: "+1 (650) 555-0100",
        linkedin: "https://www.linkedin.com/in/ada-lovelace",
        accomplishment: "Wrote the first program for the Analytical Engine.",
        position: "Software Engineers",
        department: "Engineering",
      }),
    },
    responses: {
      200: { description: "Received.", body: json(JobApplicationResponseSchema, one("Submitted", { message: JOB_APPLICATION_MESSAGES.submitted, application_id: EXAMPLE_IDS.application })) },
      400: error("A field is missing or invalid: `detail` names the first problem.", one("Bad phone", exampleErrors.phoneInvalid)),
      413: error("The resume is larger than 10 MB.", one("Too large", exampleErrors.resumeTooLarge)),
      429: tooManyRequests,
    },
  }),
] as const;

// ---------------------------------------------------------------- operations

export const healthEndpoints = [
  defineEndpoint({
    method: "get",
    path: "/health",
    tag: "operations",
    operationId: "health",
    summary: "Is the process up?",
    access: "public",
    responses: { 200: { description: "Up.", body: json(z.object({ status: z.literal("ok") }), one("Up", { status: "ok" })) } },
  }),
  defineEndpoint({
    method: "get",
    path: "/ready",
    tag: "operations",
    operationId: "ready",
    summary: "Can it serve? (Redis and the store answer, and the store can write)",
    access: "public",
    responses: {
      200: {
        description: "Ready; or degraded (still serving) while journal damage kept at start is not acknowledged, `detail` naming the files.",
        body: json(z.object({ status: z.enum(["ready", "degraded"]), detail: z.string().optional() }), one("Ready", { status: "ready" })),
      },
      503: {
        description: "Redis or the store does not answer, or the store's disk is full (`detail` says why).",
        body: json(z.object({ status: z.literal("unavailable"), detail: z.string() }), one("Redis down", { status: "unavailable", detail: "Connection is closed." })),
      },
    },
  }),
] as const;
