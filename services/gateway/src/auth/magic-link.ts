import { magicLinkKey, signedInFromKey, type Redis } from "@sd/queue";
import type { Mailer } from "../mail/mailer";
import { hashToken, randomToken } from "./tokens";

interface PendingLink {
  email: string;
  /** Epoch ms. */
  expires_at: number;
}

/**
 * Single-use sign-in links. The token is random (32 bytes); only its SHA-256 is kept, in Redis,
 * with the link's lifetime as TTL; verifying takes it with GETDEL, so it works once.
 */
export class MagicLinks {
  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string,
    private readonly mailer: Mailer,
    private readonly publicUrl: string,
    private readonly ttlSeconds: number,
    /** How long an IP address an account signed in from is remembered (a session's longest life). */
    private readonly rememberDays: number,
  ) {}

  /** Creates a link for `email` and mails it. Nothing here depends on whether the email has an account. */
  async send(email: string): Promise<void> {
    const token = randomToken();
    const pending: PendingLink = { email, expires_at: Date.now() + this.ttlSeconds * 1000 };
    await this.redis.set(this.key(token), JSON.stringify(pending), "PX", this.ttlSeconds * 1000);
    const link = `${this.publicUrl}/auth/callback?token=${encodeURIComponent(token)}`;
    await this.mailer.send({
      to: email,
      subject: "Your Smart Decision sign-in link",
      text: [
        "Hello,",
        "",
        "Open this link to sign in to Smart Decision:",
        "",
        link,
        "",
        `The link works once and expires in ${describeDuration(this.ttlSeconds)}.`,
        "If you did not ask to sign in, you can ignore this email.",
        "",
      ].join("\n"),
    });
  }

  /** The email a token was sent to, once; null for a used, expired or unknown token. */
  async consume(token: string): Promise<string | null> {
    const raw = await this.redis.getdel(this.key(token));
    if (raw === null) return null;
    const pending = JSON.parse(raw) as PendingLink;
    return pending.expires_at > Date.now() ? pending.email : null;
  }

  /** Remembers that `email` signed in with a link from `ip` (see `signedInFrom`). */
  async rememberSignIn(email: string, ip: string): Promise<void> {
    await this.redis.set(this.signInKey(email, ip), "1", "EX", this.rememberDays * 24 * 3600);
  }

  /**
   * True when `email` signed in with a link from `ip` lately: its owner asking from there is not
   * held back by the per-address ceiling that a flood from other addresses may have reached.
   */
  async signedInFrom(email: string, ip: string): Promise<boolean> {
    return (await this.redis.exists(this.signInKey(email, ip))) === 1;
  }

  private key(token: string): string {
    return magicLinkKey(this.keyPrefix, hashToken(token));
  }

  /** Hashed: neither the address nor the IP is readable in Redis. */
  private signInKey(email: string, ip: string): string {
    return signedInFromKey(this.keyPrefix, hashToken(`${email}\n${ip}`));
  }
}

function describeDuration(seconds: number): string {
  if (seconds % 3600 === 0) return plural(seconds / 3600, "hour");
  if (seconds % 60 === 0) return plural(seconds / 60, "minute");
  return plural(seconds, "second");
}

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"}`;
