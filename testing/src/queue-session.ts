import { expect } from "vitest";
import { callApi } from "./history";

/** Mints a queue-view session for an admin: the `name=value` a browser sends back, and the whole Set-Cookie header. */
export async function queueSession(baseUrl: string, adminAccessToken: string): Promise<{ cookie: string; setCookie: string }> {
  const answer = await callApi(baseUrl, "/api/admin/queues-session", adminAccessToken, { method: "POST" });
  expect(answer.status).toBe(200);
  const setCookie = answer.headers.get("set-cookie")!;
  return { cookie: setCookie.split(";")[0]!, setCookie };
}
