import type { AuthResponse } from "@sd/contracts";
import { postJson } from "./client";
import type { SmtpCapture } from "./smtp-capture";

/** The sign-in token in a magic-link mail (the link is `<PUBLIC_URL>/auth/callback?token=...`). */
export function magicLinkToken(text: string): { link: string; token: string } {
  const link = /(https?:\/\/\S+\/auth\/callback\?token=\S+)/.exec(text)?.[1];
  if (!link) throw new Error(`no sign-in link in the mail:\n${text}`);
  return { link, token: new URL(link).searchParams.get("token")! };
}

/** Signs in as a browser would with a magic link: request it, read the mail, verify the token. */
export async function signInByMail(url: string, smtp: SmtpCapture, email: string): Promise<AuthResponse> {
  const requested = await postJson(`${url}/api/auth/magic-link/request`, { email });
  if (requested.status !== 200) throw new Error(`magic-link request answered ${requested.status}: ${JSON.stringify(requested.body)}`);
  const { token } = magicLinkToken((await smtp.nextTo(email)).text);
  const verified = await postJson(`${url}/api/auth/magic-link/verify`, { token });
  if (verified.status !== 200) throw new Error(`magic-link verify answered ${verified.status}: ${JSON.stringify(verified.body)}`);
  return verified.body as unknown as AuthResponse;
}
