import { isIPv6 } from "node:net";

/** Addresses a server listens on but no browser can open: they mean "every interface". */
const WILDCARD_HOSTS = new Set(["", "0.0.0.0", "::", "[::]"]);

/**
 * The site's base URL when PUBLIC_URL is unset: where this gateway listens, so sign-in links work
 * on the machine itself whatever PORT is. A wildcard HOST (0.0.0.0 in a container or on a LAN
 * server) is no address a link can point at, so it becomes the loopback address; any other HOST
 * is used as is. Behind a domain or on another machine, PUBLIC_URL must be set.
 */
export function defaultPublicUrl({ HOST, PORT }: { HOST: string; PORT: number }): string {
  const host = WILDCARD_HOSTS.has(HOST.trim()) ? "127.0.0.1" : HOST.trim();
  return `http://${isIPv6(host) ? `[${host}]` : host}:${PORT}`;
}

/** PUBLIC_URL when set, otherwise `defaultPublicUrl`. */
export function publicUrlOf(env: { PUBLIC_URL?: string | undefined; HOST: string; PORT: number }): string {
  return env.PUBLIC_URL ?? defaultPublicUrl(env);
}
