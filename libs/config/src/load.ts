import { z } from "zod";

/** A bad or missing environment variable; the message names it. */
export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

/** Parses the environment once; the first bad value stops the process with a message naming the variable. */
export function loadEnv<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => {
    const variable = issue.path.join(".") || "(environment)";
    return `${variable}: ${issue.message}`;
  });
  throw new ConfigError(`Invalid configuration:\n  ${lines.join("\n  ")}`);
}

/** Treats an empty string like an unset variable, as shells and compose files often pass them. */
export const optionalString = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() !== "" ? v.trim() : undefined));

export const intFromEnv = (fallback: number, min = 0) =>
  z.preprocess((v) => (v === undefined || v === "" ? fallback : v), z.coerce.number().int().min(min));

export const boolFromEnv = (fallback: boolean) =>
  z.preprocess(
    (v) => (v === undefined || v === "" ? String(fallback) : String(v).toLowerCase()),
    z.enum(["true", "false", "1", "0", "yes", "no"]).transform((v) => v === "true" || v === "1" || v === "yes"),
  );
