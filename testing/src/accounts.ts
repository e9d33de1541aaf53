// oidc-provider ships no types: workspaces that import these helpers (tests/browser) need its declarations too.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./oidc-provider-module.d.ts" />
import type { TestOidcOptions, TestOidcProvider } from "./oidc-provider";

/**
 * Account helpers for tests in other workspaces (the web app's browser tests): real SMTP capture,
 * magic-link sign-in, and a real OpenID provider standing in for Google. The provider is loaded
 * only when started (oidc-provider is heavy and warns about the Node version on import).
 */
export { SmtpCapture, type CapturedMail } from "./smtp-capture";
export { magicLinkToken, signInByMail } from "./sign-in";
export type { TestAccount, TestOidcOptions, TestOidcProvider } from "./oidc-provider";

export async function startTestOidcProvider(options: TestOidcOptions): Promise<TestOidcProvider> {
  const { TestOidcProvider } = await import("./oidc-provider");
  return TestOidcProvider.start(options);
}
