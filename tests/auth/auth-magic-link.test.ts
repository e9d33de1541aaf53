import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { AUTH_MESSAGES } from "@sd/contracts";
import { useEmulator } from "@sd/provider-emulator/testing";
import { postJson } from "@sd/testing/client";
import { magicLinkToken } from "@sd/testing/sign-in";
import { useStackWithMail } from "@sd/testing/stack-with-mail";

const REQUEST = "/api/auth/magic-link/request";
const VERIFY = "/api/auth/magic-link/verify";
const PUBLIC_URL = "https://decide.example.test";

const emulator = useEmulator();
const stack = useStackWithMail(emulator, { PUBLIC_URL, MAGIC_LINK_PER_EMAIL_AND_IP_PER_HOUR: "3", MAGIC_LINK_PER_IP_PER_HOUR: "1000" });

const post = (path: string, body: unknown) => postJson(`${stack.url}${path}`, body);
let n = 0;
const freshEmail = () => `person${++n}-${Date.now()}@example.com`;

describe("magic-link sign-in over real SMTP", () => {
  it("mails a single-use link whose token signs the user in, creating a verified account", async () => {
    const email = freshEmail();
    const requested = await post(REQUEST, { email: `  ${email.toUpperCase()} ` });
    expect(requested).toEqual({ status: 200, body: { message: AUTH_MESSAGES.magicLinkSent } });

    const mail = await stack.smtp.nextTo(email);
    expect(mail.subject).toMatch(/sign-in link/i);
    const { link, token } = magicLinkToken(mail.text);
    expect(link.startsWith(`${PUBLIC_URL}/auth/callback?token=`)).toBe(true);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(mail.text).toContain("15 minutes");

    const verified = await post(VERIFY, { token });
    expect(verified.status).toBe(200);
    const { user, tokens } = verified.body as { user: Record<string, unknown>; tokens: Record<string, unknown> };
    expect(user).toEqual({ id: expect.any(String), email, name: null, is_verified: true, avatar_url: null });
    expect(tokens).toEqual({ access_token: expect.any(String), refresh_token: expect.any(String), expires_in: 900, token_type: "bearer" });
    expect(await stack.store.users.findByEmail(email)).toMatchObject({ id: user.id, is_verified: true });

    // The token works once.
    const again = await post(VERIFY, { token });
    expect(again).toEqual({ status: 400, body: { detail: AUTH_MESSAGES.invalidMagicLink } });
  });

  it("signs a known email into the same account", async () => {
    const email = freshEmail();
    const first = await signIn(email);
    const second = await signIn(email);
    expect(second.user.id).toBe(first.user.id);
    expect(await stack.store.users.count()).toBeGreaterThan(0);
  });

  it("answers a known and an unknown email the same way (no account discovery)", async () => {
    const known = freshEmail();
    await signIn(known);
    const unknown = freshEmail();
    const forKnown = await post(REQUEST, { email: known });
    const forUnknown = await post(REQUEST, { email: unknown });
    expect(forUnknown).toEqual(forKnown);
    expect(forKnown).toEqual({ status: 200, body: { message: AUTH_MESSAGES.magicLinkSent } });
    // Both get a link: a first sign-in is how an account is made.
    await stack.smtp.nextTo(known);
    await stack.smtp.nextTo(unknown);
    expect(await stack.store.users.findByEmail(unknown)).toBeNull();
  });

  it("refuses an unknown token and a malformed body", async () => {
    expect(await post(VERIFY, { token: "A".repeat(43) })).toEqual({ status: 400, body: { detail: AUTH_MESSAGES.invalidMagicLink } });
    expect((await post(VERIFY, {})).status).toBe(400);
    expect(await post(REQUEST, { email: "  " })).toEqual({ status: 400, body: { detail: AUTH_MESSAGES.emailRequired } });
    expect(await post(REQUEST, { email: "not-an-email" })).toEqual({ status: 400, body: { detail: AUTH_MESSAGES.invalidEmail } });
  });

  it("limits the links sent to one email address from one IP address per hour", async () => {
    const email = freshEmail();
    for (let i = 0; i < 3; i++) expect((await post(REQUEST, { email })).status).toBe(200);
    const limited = await post(REQUEST, { email });
    expect(limited.status).toBe(429);
    expect(limited.body.detail).toMatch(/Too many sign-in links/);
    // Another address is not affected.
    expect((await post(REQUEST, { email: freshEmail() })).status).toBe(200);
  });

  async function signIn(email: string) {
    await post(REQUEST, { email });
    const { token } = magicLinkToken((await stack.smtp.nextTo(email)).text);
    const verified = await post(VERIFY, { token });
    expect(verified.status).toBe(200);
    return verified.body as { user: { id: string } };
  }
});

describe("an expired magic link", () => {
  const shortLived = useStackWithMail(emulator, { PUBLIC_URL, MAGIC_LINK_TTL_SECONDS: "1" });

  it("is refused once its lifetime has passed", async () => {
    const email = freshEmail();
    const requested = await postJson(`${shortLived.url}${REQUEST}`, { email });
    // The server stored the link before answering, so it expires at the latest a second from now.
    const expiresBy = Date.now() + 1000;
    expect(requested.status).toBe(200);
    const mail = await shortLived.smtp.nextTo(email);
    expect(mail.text).toContain("1 second");
    const { token } = magicLinkToken(mail.text);
    await sleep(Math.max(0, expiresBy - Date.now()) + 10);
    expect(await postJson(`${shortLived.url}${VERIFY}`, { token })).toEqual({ status: 400, body: { detail: AUTH_MESSAGES.invalidMagicLink } });
    expect(await shortLived.store.users.findByEmail(email)).toBeNull();
  });
});
