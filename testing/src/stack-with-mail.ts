import { randomUUID } from "node:crypto";
import { afterAll, beforeAll } from "vitest";
import type { AuthResponse } from "@sd/contracts";
import { testEnv } from "./env";
import { signInByMail } from "./sign-in";
import { SmtpCapture } from "./smtp-capture";
import { startStack, type InProcessStack } from "./stack";

/** A running stack whose mail goes to a capture; it is closed for you after the tests. */
export interface StackWithMail extends Omit<InProcessStack, "close"> {
  /** Every mail the stack sends (SMTP_URL points here). */
  readonly smtp: SmtpCapture;
  /** Signs in by magic link as `email` (a new address unless given), creating the account the first time. */
  signIn(email?: string): Promise<AuthResponse>;
}

/**
 * A stack for the enclosing test file or describe block with its own SMTP capture, so tests can sign
 * in by magic link: the capture and then the stack start in beforeAll, and both close in afterAll.
 * `overrides` go on top of `testEnv`; pass a function when they need the emulator's address (known
 * only once it runs).
 */
export function useStackWithMail(
  emulator: { readonly url: string },
  overrides: Record<string, string> | (() => Record<string, string>) = {},
): StackWithMail {
  let smtp: SmtpCapture | undefined;
  let stack: InProcessStack | undefined;
  beforeAll(async () => {
    smtp = await SmtpCapture.start();
    stack = await startStack(testEnv(emulator.url, { SMTP_URL: smtp.url, ...(typeof overrides === "function" ? overrides() : overrides) }));
  });
  afterAll(async () => {
    await stack?.close();
    await smtp?.close();
  });

  const running = () => {
    if (!stack || !smtp) throw new Error("the stack starts in beforeAll: use it inside hooks and tests");
    return { stack, smtp };
  };
  return {
    get url() {
      return running().stack.url;
    },
    get metricsUrl() {
      return running().stack.metricsUrl;
    },
    get store() {
      return running().stack.store;
    },
    get vars() {
      return running().stack.vars;
    },
    get smtp() {
      return running().smtp;
    },
    signIn(email = `user-${randomUUID()}@example.com`) {
      const { stack, smtp } = running();
      return signInByMail(stack.url, smtp, email);
    },
  };
}
