import type { Endpoint, HttpMethod } from "./define";

/** Path parameters of a request, by the names in the endpoint's path template. */
export type PathParams = Readonly<Record<string, string>>;

/**
 * The URL path of a call: the endpoint's `{name}` placeholders filled (each value URL-encoded) and
 * the query appended; undefined query values are left out. A missing parameter is a programming error.
 */
export function endpointPath(endpoint: Pick<Endpoint, "path">, params: PathParams = {}, query: Readonly<Record<string, string | number | boolean | undefined | null>> = {}): string {
  const path = endpoint.path.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${endpoint.path}: the path parameter ${name} is missing`);
    return encodeURIComponent(value);
  });
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== null && value !== "") search.set(name, String(value));
  const qs = search.toString();
  return qs ? `${path}?${qs}` : path;
}

/** The endpoint's method as fetch spells it (typed, so a client's method union accepts it). */
export function endpointMethod<M extends HttpMethod>(endpoint: { method: M }): Uppercase<M> {
  return endpoint.method.toUpperCase() as Uppercase<M>;
}
