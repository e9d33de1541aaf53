/** The environment variable `name` as a positive whole number, or `fallback` when it is unset or blank. */
export function positiveInteger(name: string, fallback: number): number {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive whole number, got ${JSON.stringify(raw)}`);
  return value;
}
