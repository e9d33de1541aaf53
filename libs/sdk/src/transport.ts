import type { z } from "zod";
import { API_KEY_HEADER, ErrorResponseSchema } from "@sd/contracts";
import { ApiError, errorFor, SmartDecisionError } from "./errors";

export type Method = "GET" | "POST";

export interface RequestOptions {
  /** A JSON body. */
  body?: unknown;
  /** A body sent as it is, with its content type (a JSONL batch). */
  content?: { data: string | Blob; type: string };
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/**
 * The HTTP calls of every resource of the client: the key header, a timeout, typed errors, and each
 * answer checked against the schema the API's endpoint definition gives it.
 */
export class Transport {
  constructor(
    readonly baseUrl: string,
    private readonly apiKey: string,
    private readonly timeoutMs: number,
    private readonly fetch: typeof globalThis.fetch,
  ) {}

  /** One call answered with JSON, parsed and checked against `schema`. */
  async request<S extends z.ZodType>(method: Method, path: string, schema: S, options: RequestOptions = {}): Promise<{ body: z.infer<S>; headers: Headers }> {
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    const response = await this.send(method, path, "application/json", options, signal, () => timeout.aborted);
    const json = parseJson(await response.text());
    if (!response.ok) throw refusal(response, json);
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      throw new ApiError(response.status, `The answer of ${method} ${path} is not what the API promises: ${parsed.error.issues[0]?.message ?? "invalid"}`, json, response.headers);
    }
    return { body: parsed.data, headers: response.headers };
  }

  /**
   * One call answered with JSONL, each line parsed and checked against `schema` as it arrives: the
   * body is read as a stream, never held whole. `timeoutMs` bounds the wait for the answer and then
   * each wait for more of it (not the whole download, which a large file may need longer for).
   * Leaving the loop early closes the connection.
   */
  async *jsonLines<S extends z.ZodType>(method: Method, path: string, schema: S, options: { signal?: AbortSignal } = {}): AsyncGenerator<z.infer<S>, void, undefined> {
    const controller = new AbortController();
    let timedOut = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const arm = () => {
      timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, this.timeoutMs);
    };
    const disarm = () => clearTimeout(timer);
    const forward = () => controller.abort(options.signal?.reason);
    if (options.signal?.aborted) throw options.signal.reason;
    options.signal?.addEventListener("abort", forward, { once: true });
    const cut = (error: unknown): Error => {
      if (options.signal?.aborted) return options.signal.reason as Error;
      const reason = timedOut ? `nothing more within ${this.timeoutMs} ms` : (error as Error).message;
      return new SmartDecisionError(`${method} ${this.baseUrl}${path} was cut while reading: ${reason}`, { cause: error });
    };
    try {
      arm();
      const response = await this.send(method, path, "application/jsonl", { signal: options.signal }, controller.signal, () => timedOut);
      if (!response.ok || !response.body) {
        const json = parseJson(await response.text().catch(() => ""));
        throw response.ok ? new ApiError(response.status, `The answer of ${method} ${path} has no body`, json, response.headers) : refusal(response, json);
      }
      disarm();
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      const parse = (text: string, number: number): z.infer<S> => {
        const fail = (why: string) => new ApiError(response.status, `Line ${number} of ${method} ${path} ${why}`, text, response.headers);
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          throw fail("is not JSON");
        }
        const parsed = schema.safeParse(json);
        if (!parsed.success) throw fail(`is not what the API promises: ${parsed.error.issues[0]?.message ?? "invalid"}`);
        return parsed.data;
      };
      let rest = "";
      let number = 0;
      try {
        for (;;) {
          arm();
          let chunk: Awaited<ReturnType<typeof reader.read>>;
          try {
            chunk = await reader.read();
          } catch (error) {
            throw cut(error);
          } finally {
            disarm();
          }
          if (chunk.done) break;
          const lines = (rest + chunk.value).split("\n");
          rest = lines.pop()!;
          for (const line of lines) {
            number++;
            if (line.trim() !== "") yield parse(line, number);
          }
        }
        if (rest.trim() !== "") yield parse(rest, number + 1);
      } finally {
        // Frees the connection when the caller leaves the loop early (or a line fails).
        await reader.cancel().catch(() => undefined);
      }
    } finally {
      disarm();
      options.signal?.removeEventListener("abort", forward);
    }
  }

  private async send(method: Method, path: string, accept: string, options: RequestOptions, signal: AbortSignal, timedOut: () => boolean): Promise<Response> {
    const contentType = options.content?.type ?? (options.body === undefined ? undefined : "application/json");
    try {
      return await this.fetch(`${this.baseUrl}${path}`, {
        method,
        headers: {
          [API_KEY_HEADER]: this.apiKey,
          Accept: accept,
          ...(contentType === undefined ? {} : { "Content-Type": contentType }),
          ...options.headers,
        },
        body: options.content?.data ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
        signal,
      });
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason;
      const reason = timedOut() ? `no answer within ${this.timeoutMs} ms` : (error as Error).message;
      throw new SmartDecisionError(`${method} ${this.baseUrl}${path} failed: ${reason}`, { cause: error });
    }
  }
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    // Not JSON (a proxy's error page, say): kept as text in the error.
    return text;
  }
}

/** The typed error for an error answer (errors are `{detail}`). */
function refusal(response: Response, json: unknown): ApiError {
  const error = ErrorResponseSchema.safeParse(json);
  return errorFor(response.status, error.success ? error.data.detail : `HTTP ${response.status}`, json, response.headers);
}
