import { once } from "node:events";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express, { type RequestHandler } from "express";
import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defineEndpoint } from "@sd/contracts/endpoints";
import { createLogger } from "@sd/telemetry";
import { EndpointRouter } from "./endpoint-router";
import { errorHandler, HttpError } from "./errors";

const renameThing = defineEndpoint({
  method: "put",
  path: "/api/things/{id}",
  tag: "site",
  operationId: "renameThing",
  summary: "Rename a thing",
  access: "bearer",
  params: z.object({ id: z.string().regex(/^t\d+$/, "id must look like t1") }),
  query: z.object({ dry: z.enum(["yes", "no"]).default("no") }),
  body: { schema: z.object({ name: z.string().min(1, "name is required") }), examples: {} },
  responses: { 200: { description: "Renamed.", body: { schema: z.object({ id: z.string(), name: z.string(), dry: z.string() }), examples: {} } } },
});

/** Which steps ran, in order, for the last request. */
let steps: string[] = [];
const step = (name: string): RequestHandler => (_req, _res, next) => {
  steps.push(name);
  next();
};
const bearer: RequestHandler = (req, _res, next) => {
  steps.push("guard");
  next(req.get("authorization") === "Bearer ok" ? undefined : new HttpError(401, "sign in"));
};
const bodyReader: RequestHandler = (req, res, next) => {
  steps.push("body");
  express.json()(req, res, next);
};

let server: Server;
let base: string;

beforeAll(async () => {
  const app = express();
  app.use(
    "/api",
    new EndpointRouter("/api", { bearer }).mount(renameThing, {
      before: [step("before")],
      after: [step("after")],
      bodyReader,
      handler: ({ params, query, body }) => ({ status: 200, body: { id: params.id, name: body.name, dry: query.dry }, headers: { "X-Thing": params.id } }),
    }).router,
  );
  app.use(errorHandler(createLogger("endpoint-router-test", "silent")));
  server = app.listen(0, "127.0.0.1");
  await once(server, "listening");
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

async function rename(path: string, body: unknown, token = "ok"): Promise<{ status: number; json: unknown; header: string | null }> {
  steps = [];
  const response = await fetch(`${base}${path}`, {
    method: "PUT",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: await response.json(), header: response.headers.get("x-thing") };
}

describe("EndpointRouter", () => {
  it("mounts the endpoint's method and path, parses params, query and body, and sends the handler's answer with its headers", async () => {
    const answer = await rename("/api/things/t7?dry=yes", { name: "Lamp" });
    expect(answer).toEqual({ status: 200, json: { id: "t7", name: "Lamp", dry: "yes" }, header: "t7" });
    expect(steps).toEqual(["before", "guard", "after", "body"]);
  });

  it("refuses a caller its access does not admit before the body is read", async () => {
    const answer = await rename("/api/things/t7", { name: "Lamp" }, "nope");
    expect(answer.status).toBe(401);
    expect(steps).toEqual(["before", "guard"]);
  });

  it("answers a bad body, path parameter or query with the schema's message as a 400", async () => {
    expect((await rename("/api/things/t7", { name: "" })).json).toEqual({ detail: "name is required" });
    expect((await rename("/api/things/x", { name: "Lamp" })).json).toEqual({ detail: "id must look like t1" });
    const badQuery = await rename("/api/things/t7?dry=maybe", { name: "Lamp" });
    expect(badQuery.status).toBe(400);
  });

  it("refuses to mount an endpoint outside its prefix, or one whose access has no guard", () => {
    expect(() => new EndpointRouter("/v1", { bearer }).mount(renameThing, { handler: () => undefined })).toThrow("/api/things/{id} is not under /v1");
    expect(() => new EndpointRouter("/api").mount(renameThing, { handler: () => undefined })).toThrow("renameThing: no guard for bearer access");
  });
});
