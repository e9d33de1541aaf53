import { z } from "zod";
import { describe, expect, it } from "vitest";
import { bodyOf, jsonResponse, serveFetch } from "../auth/test-support";
import { ApiError, apiRequest, INVALID_RESPONSE_TEXT, InvalidResponseError } from "./client";

const Answer = z.object({ ok: z.literal(true), count: z.number() });

const rejection = (promise: Promise<unknown>) => promise.then(() => null, (error: unknown) => error);

describe("apiRequest: the request", () => {
  it("GETs the path with the query, leaving out undefined values", async () => {
    const calls = serveFetch(jsonResponse(200, { ok: true, count: 1 }));
    await apiRequest("/api/things", { schema: Answer, query: { limit: 50, offset: 0, category: undefined, hasDecision: false, question: "a&b c" } });
    expect(calls[0]?.url).toBe("/api/things?limit=50&offset=0&hasDecision=false&question=a%26b+c");
    expect(calls[0]?.init.method).toBe("GET");
    expect(calls[0]?.init.body).toBeUndefined();
    expect(new Headers(calls[0]?.init.headers).has("content-type")).toBe(false);
  });

  it("sends a body as JSON, keeping the caller's headers", async () => {
    const calls = serveFetch(jsonResponse(200, { ok: true, count: 1 }));
    await apiRequest("/api/things", { method: "POST", body: { name: "Ada" }, schema: Answer, init: { headers: { authorization: "Bearer a" } } });
    const headers = new Headers(calls[0]?.init.headers);
    expect(calls[0]?.init.method).toBe("POST");
    expect(headers.get("content-type")).toBe("application/json");
    expect(headers.get("authorization")).toBe("Bearer a");
    expect(bodyOf(calls[0]!.init)).toEqual({ name: "Ada" });
  });

  it("sends a FormData as multipart, without a content type of its own (the browser adds the boundary)", async () => {
    const calls = serveFetch(jsonResponse(200, { ok: true, count: 1 }));
    const form = new FormData();
    form.append("name", "Ada");
    await apiRequest("/api/upload", { method: "POST", body: form, schema: Answer });
    expect(calls[0]?.init.body).toBe(form);
    expect(new Headers(calls[0]?.init.headers).has("content-type")).toBe(false);
  });
});

describe("apiRequest: the answer", () => {
  it("returns a 2xx answer parsed with the schema", async () => {
    serveFetch(jsonResponse(201, { ok: true, count: 3, extra: "dropped" }));
    expect(await apiRequest("/api/x", { schema: Answer })).toEqual({ ok: true, count: 3 });
  });

  it("throws InvalidResponseError for a 2xx body that is not JSON or not of the schema's shape", async () => {
    serveFetch(new Response("<html>oops", { status: 200, statusText: "OK" }), jsonResponse(200, { ok: true, count: "3" }));
    for (let i = 0; i < 2; i++) {
      const error = await rejection(apiRequest("/api/x", { schema: Answer }));
      expect(error).toBeInstanceOf(InvalidResponseError);
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ status: 200, message: INVALID_RESPONSE_TEXT, explained: false });
    }
    expect(INVALID_RESPONSE_TEXT).toBe("Server returned an invalid response. Please try again.");
  });

  it("reads a failure's detail first, then its message, then 'HTTP {status}'", async () => {
    serveFetch(
      jsonResponse(400, { detail: "Bad limit.", message: "not this", title: "Bad Request" }),
      jsonResponse(404, { success: false, message: "Image asset not found" }),
      jsonResponse(500, { detail: "  ", error: "boom" }),
      new Response("<html>Bad gateway</html>", { status: 502, statusText: "Bad Gateway" }),
    );
    const errors = [];
    for (let i = 0; i < 4; i++) errors.push(await rejection(apiRequest("/api/x", { schema: Answer })));
    for (const error of errors) expect(error).toBeInstanceOf(ApiError);
    expect(errors.map((e) => e as ApiError).map(({ status, message, source, explained }) => ({ status, message, source, explained }))).toEqual([
      { status: 400, message: "Bad limit.", source: "detail", explained: true },
      { status: 404, message: "Image asset not found", source: "message", explained: true },
      { status: 500, message: "HTTP 500", source: "status", explained: false },
      { status: 502, message: "HTTP 502", source: "unreadable", explained: false },
    ]);
    expect((errors[0] as ApiError).title).toBe("Bad Request");
    expect((errors[3] as ApiError).statusText).toBe("Bad Gateway");
  });

  it("lets a network failure through as fetch rejects it", async () => {
    serveFetch(new TypeError("Failed to fetch"));
    const error = await rejection(apiRequest("/api/x", { schema: Answer }));
    expect(error).toBeInstanceOf(TypeError);
    expect(error).not.toBeInstanceOf(ApiError);
  });
});
