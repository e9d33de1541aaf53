import { randomBytes } from "node:crypto";
import { Webhook, WebhookVerificationError } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { signWebhook } from "./sign";

const newSecret = (): string => `whsec_${randomBytes(32).toString("base64")}`;

describe("signWebhook", () => {
  const body = JSON.stringify({ type: "decision.completed", timestamp: new Date().toISOString(), data: { id: "d1" } });

  it("produces headers the standardwebhooks verifier accepts, and rejects a tampered body or another secret", () => {
    const secret = newSecret();
    const headers = signWebhook({ messageId: "evt_1", timestamp: new Date(), body, secrets: [secret] });
    expect(headers["webhook-id"]).toBe("evt_1");
    expect(headers["webhook-timestamp"]).toMatch(/^\d+$/);
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(body.replace("d1", "d2"), { ...headers })).toThrow(WebhookVerificationError);
    expect(() => new Webhook(newSecret()).verify(body, { ...headers })).toThrow(WebhookVerificationError);
  });

  it("signs with every active secret during a rotation overlap, each verifying on its own", () => {
    const [current, previous] = [newSecret(), newSecret()];
    const headers = signWebhook({ messageId: "evt_2", timestamp: new Date(), body, secrets: [current, previous] });
    expect(headers["webhook-signature"].split(" ")).toHaveLength(2);
    expect(headers["webhook-signature"]).toMatch(/^v1,\S+ v1,\S+$/);
    expect(() => new Webhook(current).verify(body, { ...headers })).not.toThrow();
    expect(() => new Webhook(previous).verify(body, { ...headers })).not.toThrow();
  });

  it("signs the whole-second timestamp it puts in the header", () => {
    const secret = newSecret();
    const at = new Date(Date.now() - (Date.now() % 1000) + 999);
    const headers = signWebhook({ messageId: "evt_3", timestamp: at, body, secrets: [secret] });
    expect(Number(headers["webhook-timestamp"]) * 1000).toBe(at.getTime() - 999);
    expect(() => new Webhook(secret).verify(body, { ...headers })).not.toThrow();
  });

  it("refuses to sign without a secret", () => {
    expect(() => signWebhook({ messageId: "evt_4", timestamp: new Date(), body, secrets: [] })).toThrow(/at least one/);
  });
});
