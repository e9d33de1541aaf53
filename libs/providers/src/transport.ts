import { Agent, fetch as undiciFetch, getGlobalDispatcher, setGlobalDispatcher } from "undici";

/**
 * One keep-alive pool shared by every vendor SDK in this process.
 * - Idle connections close after 4 s, below the unannounced 5 s idle timeout of uvicorn-based
 *   servers (vLLM, LiteLLM), so a call never goes out on a socket the server is closing.
 * - No cap per origin: the workers' concurrency bounds calls, and a cap would queue them unseen.
 * - No pipelining: an aborted call closes its socket, which must not take other calls with it.
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
 * `fetch` for the SDKs that take one (OpenAI, Anthropic): undici's fetch over the shared pool, which
 * costs less CPU than Node 20's bundled copy (see bench/sdk-transport.ts). Errors keep fetch's shapes,
 * which the SDKs' timeout and connection-error classification rely on.
 * Calls go out in "error" redirect mode, because "follow" copies every body in case of a redirect
 * vendor APIs never send; only on a redirect is the call sent again in "follow" mode (safe: the
 * server did not run it). A caller's own redirect mode, a `Request` or a stream body is sent as is.
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
