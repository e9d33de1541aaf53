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

/**
 * `fetch` for the SDKs that take one (OpenAI, Anthropic): undici's own fetch over the shared pool.
 * It is the same WHATWG fetch as Node's, but the package's newer release costs a fifth to a third
 * less CPU per SDK call than the copy bundled in Node 20 (services/all-in-one/bench/sdk-transport.ts).
 * Aborts and errors keep fetch's shapes (the caller's signal reason, `TypeError: fetch failed`
 * with the cause), which the SDKs' timeout and connection-error classification rely on.
 */
export const keepAliveFetch: typeof globalThis.fetch = (input, init) =>
  // The casts only bridge two copies of the same DOM types: @types/node's and the undici package's.
  undiciFetch(input as Parameters<typeof undiciFetch>[0], { ...(init as Parameters<typeof undiciFetch>[1]), dispatcher: agent }) as unknown as Promise<Response>;

/**
 * Gemini's SDK takes no `fetch` and calls the global one. undici's documented hook for Node's
 * built-in fetch is the global dispatcher, so the same pool serves it: one keep-alive policy per
 * process. Any other user of the global fetch in the process shares the pool too, which is what
 * it had before (Node's default dispatcher is an undici Agent as well), with a longer keep-alive.
 */
export function routeGlobalFetchThroughSharedPool(): void {
  if (getGlobalDispatcher() !== agent) setGlobalDispatcher(agent);
}
