import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns";
import type { LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";
import { Agent, errors, request } from "undici";
import { parseRetryAfter } from "./retry";
import type { SignatureHeaders } from "./sign";
import { isForbiddenAddress } from "./url-safety";

/** The most of a receiver's answer kept in the delivery log; the rest is not even read. */
export const RESPONSE_EXCERPT_BYTES = 4096;
export const WEBHOOK_USER_AGENT = "SmartDecision-Webhooks/1";

export interface DeliverySettings {
  connectTimeoutMs: number;
  /** From the request sent to the end of the (truncated) answer. */
  responseTimeoutMs: number;
  /** Development and tests deliver to loopback; otherwise every connected address is checked (DNS-rebinding defence). */
  allowPrivate: boolean;
}

/** One attempt's result, as the delivery log stores it. */
export interface DeliveryResult {
  status_code: number | null;
  latency_ms: number;
  response_excerpt: string | null;
  error: string | null;
  retry_after_ms: number | null;
}

/** Raised by the guarded lookup; its message lands in the delivery log. */
class ForbiddenAddressError extends Error {
  readonly code = "EWEBHOOKFORBIDDEN";
}

/**
 * A DNS lookup for `net.connect` that refuses internal addresses. The address checked is the address connected to, so a
 * name that resolved to a public address when the URL was checked and to 127.0.0.1 now (DNS rebinding) is still refused.
 */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, options as LookupOptions, (error, address, family) => {
    if (error) return callback(error, address as string, family);
    const answers: LookupAddress[] = Array.isArray(address) ? address : [{ address: address as string, family: family ?? 4 }];
    const forbidden = answers.find((answer) => isForbiddenAddress(answer.address));
    if (forbidden) {
      const refusal = new ForbiddenAddressError(`refused: ${hostname} resolves to an internal address (${forbidden.address})`);
      return callback(refusal as NodeJS.ErrnoException, "", 4);
    }
    // `all: true` (Node's happy-eyeballs connect asks for it) wants the list back, otherwise the single address.
    (callback as (error: null, address: string | LookupAddress[], family?: number) => void)(null, address as string | LookupAddress[], family);
  });
};

function describeFailure(error: unknown, settings: DeliverySettings): string {
  if (error instanceof errors.ConnectTimeoutError) return `connect timeout after ${settings.connectTimeoutMs} ms`;
  if (error instanceof errors.HeadersTimeoutError || error instanceof errors.BodyTimeoutError || isAbort(error)) {
    return `no response within ${settings.responseTimeoutMs} ms`;
  }
  const cause = (error as { cause?: unknown }).cause ?? error;
  if (cause instanceof ForbiddenAddressError) return cause.message;
  const code = (cause as { code?: string }).code;
  const message = cause instanceof Error ? cause.message : String(cause);
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}

function isAbort(error: unknown): boolean {
  return error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError");
}

/** Reads at most RESPONSE_EXCERPT_BYTES of the body, then stops reading (and drops the connection's rest). */
async function readExcerpt(body: AsyncIterable<Buffer> & { destroy(error?: Error): unknown }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= RESPONSE_EXCERPT_BYTES) {
      body.destroy();
      break;
    }
  }
  const bytes = Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES);
  // A multi-byte character cut at the limit decodes to U+FFFD; dropping it keeps the excerpt within 4 KB once re-encoded.
  return bytes.toString("utf8").replace(/\uFFFD+$/, "");
}

/** Posts signed webhook bodies; one instance per process holds the connection pool. */
export class WebhookDeliverer {
  readonly #agent: Agent;
  readonly #settings: DeliverySettings;

  constructor(settings: DeliverySettings) {
    this.#settings = settings;
    this.#agent = new Agent({
      connect: { timeout: settings.connectTimeoutMs, ...(settings.allowPrivate ? {} : { lookup: guardedLookup }) },
      headersTimeout: settings.responseTimeoutMs,
      bodyTimeout: settings.responseTimeoutMs,
      // Receivers are many and idle between events: a short keep-alive spares sockets without reconnecting per burst.
      keepAliveTimeout: 4_000,
    });
  }

  /** One POST; never throws — every failure is a result with `error` set, for the log and the retry decision. */
  async deliver(url: string, body: string, signature: SignatureHeaders): Promise<DeliveryResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const failure = (error: string): DeliveryResult => ({ status_code: null, latency_ms: elapsed(), response_excerpt: null, error, retry_after_ms: null });
    // A URL naming an IP literal never reaches the lookup, so the same rule is applied here.
    let host: string;
    try {
      host = new URL(url).hostname.replace(/^\[|\]$/g, "");
    } catch {
      return failure("not a valid URL");
    }
    if (!this.#settings.allowPrivate && ipaddr.isValid(host) && isForbiddenAddress(host)) return failure(`refused: ${host} is an internal address`);
    // A receiver trickling bytes could keep a slot forever under per-read timeouts; this bounds the whole attempt.
    const deadline = AbortSignal.timeout(this.#settings.connectTimeoutMs + this.#settings.responseTimeoutMs);
    try {
      const response = await request(url, {
        method: "POST",
        dispatcher: this.#agent,
        signal: deadline,
        headers: { ...signature, "content-type": "application/json", "user-agent": WEBHOOK_USER_AGENT },
        body,
      });
      const latency = elapsed();
      let excerpt: string | null = null;
      try {
        excerpt = await readExcerpt(response.body);
      } catch {
        // The status is what counts; an answer cut off while being read still has one.
        response.body.destroy();
      }
      const retryAfter = response.headers["retry-after"];
      return {
        status_code: response.statusCode,
        latency_ms: latency,
        response_excerpt: excerpt === "" ? null : excerpt,
        error: null,
        retry_after_ms: parseRetryAfter(Array.isArray(retryAfter) ? retryAfter[0] : retryAfter),
      };
    } catch (error) {
      return failure(describeFailure(error, this.#settings));
    }
  }

  async close(): Promise<void> {
    await this.#agent.close();
  }
}
