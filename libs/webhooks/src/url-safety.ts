import { lookup } from "node:dns/promises";
import ipaddr from "ipaddr.js";

/** A webhook URL the product refuses; the message is shown to the user as is. */
export class WebhookUrlError extends Error {
  override name = "WebhookUrlError";
}

export interface UrlSafetyOptions {
  /** Development and tests deliver to loopback receivers; production refuses internal addresses. */
  allowPrivate: boolean;
}

/**
 * Cloud metadata services. Most sit in ranges refused anyway (link-local, unique-local); they are listed so the
 * refusal names them and so a range-table change can never let them through.
 */
const METADATA_ADDRESSES = new Set(["169.254.169.254", "fd00:ec2::254", "168.63.129.16", "100.100.100.200"]);

/** ipaddr.js ranges of publicly routable unicast space; everything else (loopback, private, link-local, CGNAT, reserved, …) is refused. */
const PUBLIC_V4_RANGES = new Set(["unicast"]);
const PUBLIC_V6_RANGES = new Set(["unicast"]);

/**
 * True when a connection to this address could reach the deployment's own network: loopback, private, link-local, CGNAT,
 * unique-local, unspecified, multicast, metadata, and IPv6 forms embedding such an IPv4 address. Unparseable input is forbidden.
 */
export function isForbiddenAddress(ip: string): boolean {
  const bare = ip.startsWith("[") && ip.endsWith("]") ? ip.slice(1, -1) : ip;
  if (!ipaddr.isValid(bare)) return true;
  const parsed = ipaddr.parse(bare);
  if (METADATA_ADDRESSES.has(parsed.toNormalizedString()) || METADATA_ADDRESSES.has(parsed.toString())) return true;
  if (parsed.kind() === "ipv4") return !PUBLIC_V4_RANGES.has(parsed.range());
  const v6 = parsed as ipaddr.IPv6;
  // ::ffff:a.b.c.d reaches the IPv4 host on dual-stack sockets, so it is judged as that IPv4 address.
  if (v6.isIPv4MappedAddress()) return isForbiddenAddress(v6.toIPv4Address().toString());
  // The deprecated IPv4-compatible form ::a.b.c.d (and :: / ::1) has 96 zero bits in front: never a public receiver.
  if (v6.parts.slice(0, 6).every((part) => part === 0)) return true;
  return !PUBLIC_V6_RANGES.has(v6.range());
}

function hostOf(url: URL): string {
  const host = url.hostname;
  return host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
}

/** Parses and checks the URL syntax only (scheme, credentials); used before any DNS work. */
export function parseWebhookUrl(raw: string, options: UrlSafetyOptions): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebhookUrlError("The webhook URL is not a valid absolute URL.");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new WebhookUrlError("The webhook URL must start with https://.");
  }
  if (!options.allowPrivate && url.protocol !== "https:") {
    throw new WebhookUrlError("The webhook URL must use https://.");
  }
  if (url.username !== "" || url.password !== "") {
    throw new WebhookUrlError("The webhook URL must not contain a user name or password; authenticate with the signature instead.");
  }
  if (url.hostname === "") throw new WebhookUrlError("The webhook URL has no host name.");
  return url;
}

/**
 * Resolves a host name to every address it answers with, for the safety check. An IP literal is returned as is
 * (the WHATWG URL parser has already normalised decimal/hex IPv4 forms such as http://2130706433/ to 127.0.0.1).
 */
async function resolveAll(host: string): Promise<string[]> {
  if (ipaddr.isValid(host)) return [host];
  try {
    const answers = await lookup(host, { all: true, verbatim: true });
    return answers.map((answer) => answer.address);
  } catch {
    throw new WebhookUrlError(`The webhook host "${host}" could not be resolved.`);
  }
}

/**
 * Refuses webhook URLs the product must not call: non-http(s), credentials in the URL, and — unless private URLs are allowed —
 * plain http and any host resolving (on any of its A/AAAA records) to an internal or metadata address.
 */
export async function checkWebhookUrl(raw: string, options: UrlSafetyOptions): Promise<void> {
  const url = parseWebhookUrl(raw, options);
  if (options.allowPrivate) return;
  const host = hostOf(url);
  const addresses = await resolveAll(host);
  if (addresses.length === 0) throw new WebhookUrlError(`The webhook host "${host}" could not be resolved.`);
  const forbidden = addresses.find(isForbiddenAddress);
  if (forbidden !== undefined) {
    throw new WebhookUrlError(
      forbidden === host
        ? `The webhook URL points to an internal address (${host}); use a publicly reachable host.`
        : `The webhook host "${host}" resolves to an internal address (${forbidden}); use a publicly reachable host.`,
    );
  }
}
