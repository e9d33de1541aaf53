import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useEmulator } from "@sd/provider-emulator/testing";
import { postJson } from "@sd/testing/client";
import { testEnv } from "@sd/testing/env";
import { startStack, type InProcessStack } from "@sd/testing/stack";

const WAITLIST = "/api/email-request";
const INVALID = "Please enter a valid email address.";
const REQUIRED = "Please enter your email address.";

const emulator = useEmulator();
let stack: InProcessStack;
/** A second deployment whose form limit is 2 an hour, to see the limiter answer. */
let limited: InProcessStack;

beforeAll(async () => {
  [stack, limited] = await Promise.all([
    startStack(testEnv(emulator.url)),
    startStack(testEnv(emulator.url, { FORMS_RATE_LIMIT_PER_HOUR: "2" })),
  ]);
});
afterAll(async () => {
  await Promise.all([stack?.close(), limited?.close()]);
});

const join = (body: unknown, on: InProcessStack = stack) => postJson(`${on.url}${WAITLIST}`, body);

describe("POST /api/email-request", () => {
  it("adds a new email, trimmed, with the caller's IP", async () => {
    const response = await join({ email: "  ada@example.com " });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, message: expect.stringMatching(/waitlist/i) });
    const entry = await stack.store.waitlist.find("ada@example.com");
    expect(entry).toMatchObject({ email: "ada@example.com" });
    expect(entry?.ip).toMatch(/127\.0\.0\.1$/);
  });

  it("accepts a repeated email (other case, spaces) with a different message and keeps one record", async () => {
    const first = await join({ email: "Grace.Hopper@Example.com" });
    const before = await stack.store.waitlist.count();
    const again = await join({ email: "  grace.hopper@example.COM  " });
    const third = await join({ email: "GRACE.HOPPER@EXAMPLE.COM" });

    expect(first.body.success).toBe(true);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ success: true, message: expect.any(String) });
    expect(again.body.message).not.toBe(first.body.message);
    expect(third.body).toEqual(again.body);
    expect(await stack.store.waitlist.count()).toBe(before);
    // The first sign-up's spelling is the one kept.
    expect(await stack.store.waitlist.find("grace.hopper@example.com")).toMatchObject({ email: "Grace.Hopper@Example.com" });
  });

  it.each([
    ["no @", "ada.example.com"],
    ["no domain", "ada@"],
    ["spaces inside", "ada lovelace@example.com"],
    ["two @", "ada@@example.com"],
    ["a number", 42],
    ["an address longer than 254 characters", `${"a".repeat(250)}@example.com`],
  ])("refuses an invalid email (%s) with 400 and the validation message", async (_name, email) => {
    const before = await stack.store.waitlist.count();
    const response = await join({ email });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ success: false, message: INVALID });
    expect(await stack.store.waitlist.count()).toBe(before);
  });

  it.each([
    ["a blank email", { email: "   " }],
    ["a null email", { email: null }],
    ["a body without email", {}],
    ["a JSON array", [{ email: "ada@example.com" }]],
  ])("refuses %s with 400 and the required-email message", async (_name, body) => {
    const response = await join(body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ success: false, message: REQUIRED });
  });

  it("refuses a request with no body at all", async () => {
    const before = await stack.store.waitlist.count();
    const response = await fetch(`${stack.url}${WAITLIST}`, { method: "POST" });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ success: false, message: REQUIRED });
    expect(await stack.store.waitlist.count()).toBe(before);
  });

  it("answers 429 with a detail once the per-IP form limit is used up", async () => {
    expect((await join({ email: "one@example.com" }, limited)).status).toBe(200);
    expect((await join({ email: "two@example.com" }, limited)).status).toBe(200);
    const refused = await join({ email: "three@example.com" }, limited);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ detail: "Too many requests. Please wait an hour and try again." });
    expect(await limited.store.waitlist.find("three@example.com")).toBeNull();
  });
});
