import { Agent, fetch as undiciFetch, getGlobalDispatcher, setGlobalDispatcher } from "undici";

/**
 * The HTTP client every vendor SDK in this process talks through: one undici Agent (a keep-alive
 * pool per origin), shared by all providers.
 *
 * - Idle connections stay open 4 s (undici's default): enough to serve the next call of a busy
 *   deployment without a new handshake, and below the 5 s idle timeout of common self-hosted
 *   OpenAI-compatible servers (uvicorn: vLLM, LiteLLM), which announce none, so a call never goes
 *   out on a socket the server is closing. A server that announces a shorter one in its
 *   `Keep-Alive` header is taken at its word.
 * - No cap on connections per origin: the provider workers' concurrency already bounds the calls
 *   in flight, and a lower cap here would queue calls inside the pool, unseen by any queue metric.
 * - No pipelining: an aborted call closes its socket, which must not take other calls with it.
 *
 * Idle sockets are unref'd by undici, so the pool never keeps a process alive on its own.
 */
const agent = new Agent({ keepAliveTimeout: 4_000, keepAliveMaxTimeout: 600_000, pipelining: 1 });

type UndiciInput = Parameters<typeof undiciFetch>[0];
type UndiciInit = NonNullable<Parameters<typeof undiciFetch>[1]>;

/** undici's own fetch over the shared pool. The casts only bridge two copies of the same DOM types: @types/node's and the undici package's. */
const pooledFetch = (input: unknown, init: UndiciInit): Promise<Response> =>
  undiciFetch(input as UndiciInput, { ...init, dispatcher: agent }) as unknown as Promise<Response>;

/** A body fetch can send a second time as it is (what the SDKs send: JSON strings, bytes, forms); not a stream. */
function sendableTwice(body: unknown): boolean {
  return body == null || typeof body === "string" || body instanceof Uint8Array || body instanceof ArrayBuffer || body instanceof URLSearchParams || body instanceof FormData || body instanceof Blob;
}

/** The network error fetch gives in "error" redirect mode when the server answers with a redirect. */
function isRedirectRefusal(error: unknown): boolean {
  return error instanceof TypeError && error.cause instanceof Error && error.cause.message === "unexpected redirect";
}

/**
 * `fetch` for the SDKs that take one (OpenAI, Anthropic): undici's own fetch over the shared pool.
 * It is the same WHATWG fetch as Node's, but the package's newer release costs a fifth to a third
 * less CPU per SDK call than the copy bundled in Node 20 (services/all-in-one/bench/sdk-transport.ts).
 * Aborts and errors keep fetch's shapes (the caller's signal reason, `TypeError: fetch failed`
 * with the cause), which the SDKs' timeout and connection-error classification rely on.
 *
 * Redirects: in its default mode ("follow") fetch must be able to send the body again to wherever
 * a 307 or 308 points, so it copies every request before sending it, body stream included (a
 * `tee`). That copy cost a third of the client's CPU per call (medians at concurrency 20: OpenAI
 * 325 to 224 µs, Anthropic 321 to 209 µs), for redirects vendor APIs never send. So a call first
 * goes out in "error" mode, which copies nothing; only if the server answers with a redirect (a
 * base URL behind a proxy that moved it) is it sent again in "follow" mode, which then goes
 * exactly where it always went. Sending it again is safe: a server that answered with a redirect
 * did not run the request. A caller's own redirect mode, a `Request`, or a body that cannot be
 * sent twice (a stream) is sent as it is.
 */
export const keepAliveFetch: typeof globalThis.fetch = async (input, init = {}) => {
  const settings = init as UndiciInit;
  // A Request carries its own body and redirect mode, and is used up once sent: sent as it is.
  const plainUrl = typeof input === "string" || input instanceof URL;
  if (!plainUrl || settings.redirect !== undefined || !sendableTwice(settings.body)) return pooledFetch(input, settings);
  try {
    return await pooledFetch(input, { ...settings, redirect: "error", window: null });
  } catch (error) {
    if (!isRedirectRefusal(error)) throw error;
    return pooledFetch(input, settings);
  }
};

/**
 * Gemini's SDK takes no `fetch` and calls the global one. undici's documented hook for Node's
 * built-in fetch is the global dispatcher, so the same pool serves it: one keep-alive policy per
 * process. Any other user of the global fetch in the process shares the pool too, which is what
 * it had before (Node's default dispatcher is an undici Agent as well), with a longer keep-alive.
 */
export function routeGlobalFetchThroughSharedPool(): void {
  if (getGlobalDispatcher() !== agent) setGlobalDispatcher(agent);
}
