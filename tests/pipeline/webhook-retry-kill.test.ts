import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { WebhookDeliveryListSchema } from "@sd/contracts";
import { useEmulator } from "@sd/provider-emulator/testing";
import { WebhookDispatch, createRedis, type Redis } from "@sd/queue";
import { testEnv } from "@sd/testing/env";
import { callApi } from "@sd/testing/history";
import { ServiceProcess } from "@sd/testing/processes";
import { signInByMail } from "@sd/testing/sign-in";
import { SmtpCapture } from "@sd/testing/smtp-capture";
import { WebhookReceiver } from "@sd/testing/webhook-receiver";
import { createWebhook } from "@sd/testing/webhooks";

const emulator = useEmulator();
const running: ServiceProcess[] = [];
let receiver: WebhookReceiver;
let smtp: SmtpCapture;
let redis: Redis;

beforeAll(async () => {
  [receiver, smtp] = await Promise.all([WebhookReceiver.start(), SmtpCapture.start()]);
  redis = createRedis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379", "webhook-kill-test");
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.stop("SIGKILL")));
});
afterAll(async () => {
  redis?.disconnect();
  await Promise.all([receiver?.close(), smtp?.close()]);
});

const start = (env: Record<string, string>) => {
  const service = ServiceProcess.start("all-in-one", env);
  running.push(service);
  return service;
};

describe("webhook retries across a crash", () => {
  it("delivers a pending retry after the process that scheduled it was killed with SIGKILL", async () => {
    // Same data directory and Redis prefix for both processes: the second one is the first one restarted.
    const env = testEnv(emulator.url, { SMTP_URL: smtp.url, MAGIC_LINK_PER_IP_PER_HOUR: "1000" });
    const first = start(env);
    const url = await first.gatewayUrl();
    const user = await signInByMail(url, smtp, "webhook-crash@example.com");
    const path = "/crash";
    // 503 with Retry-After: the next attempt waits 2 s as a delayed job in Redis; the process dies meanwhile.
    const endpoint = await createWebhook(url, user.tokens.access_token, {
      url: receiver.script(path, [{ status: 503, headers: { "retry-after": "2" } }, { status: 200 }]),
      events: ["batch.completed"],
    });
    const test = await callApi(url, `/api/webhooks/${endpoint.id}/test`, user.tokens.access_token, { method: "POST" });
    expect(test.status, test.text).toBe(202);
    const eventId = String(test.body.event_id);

    await receiver.received(path, 1);
    const dispatch = new WebhookDispatch(redis, env.QUEUE_PREFIX!);
    try {
      await vi.waitFor(async () => expect((await dispatch.inspect(`${endpoint.id}.${eventId}.a2`))?.state).toBe("delayed"), { timeout: 10_000, interval: 20 });
    } finally {
      await dispatch.close();
    }
    await first.stop("SIGKILL");
    expect(receiver.at(path)).toHaveLength(1);

    const second = start(env);
    await second.gatewayUrl();
    const [one, two] = await receiver.received(path, 2, 30_000);
    expect(two!.headers["webhook-id"]).toBe(eventId);
    expect(two!.body).toBe(one!.body);
    expect(() => new Webhook(endpoint.secret).verify(two!.body, WebhookReceiver.signatureHeaders(two!))).not.toThrow();
    expect(two!.at - one!.at).toBeGreaterThanOrEqual(1900);

    const log = await vi.waitFor(async () => {
      const answer = await callApi(await second.gatewayUrl(), `/api/webhooks/${endpoint.id}/deliveries`, user.tokens.access_token);
      const list = WebhookDeliveryListSchema.parse(answer.body);
      expect(list.deliveries).toHaveLength(2);
      return list.deliveries;
    });
    expect(log.map((d) => [d.attempt, d.status_code]).sort()).toEqual([
      [1, 503],
      [2, 200],
    ]);
  }, 90_000);
});
