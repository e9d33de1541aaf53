import * as oidc from "openid-client";
import { AUTH_MESSAGES, type GoogleCallback } from "@sd/contracts";
import { googleStateKey, type Redis } from "@sd/queue";
import type { GoogleProfile } from "@sd/store";
import type { Logger } from "@sd/telemetry";
import { DomainError } from "../use-cases/errors";

/** How long a started Google sign-in may take before its state is forgotten. */
const STATE_TTL_SECONDS = 10 * 60;
const SCOPE = "openid email profile";

export interface GoogleSettings {
  issuer: string;
  clientId: string | undefined;
  clientSecret: string | undefined;
  redirectUri: string;
}

interface PendingSignIn {
  code_verifier: string;
  nonce: string;
}

/**
 * Google sign-in: the OpenID Connect authorization code flow with state, PKCE (S256) and nonce,
 * through openid-client. The state, code verifier and nonce stay server-side in Redis (TTL,
 * taken once with GETDEL), so a wrong, expired or replayed state is refused. The issuer is
 * configurable so tests run against a real OpenID provider on loopback.
 */
export class GoogleSignIn {
  private config: Promise<oidc.Configuration> | null = null;

  constructor(
    private readonly settings: GoogleSettings,
    private readonly redis: Redis,
    private readonly keyPrefix: string,
    private readonly logger: Logger,
  ) {}

  get configured(): boolean {
    return Boolean(this.settings.clientId && this.settings.clientSecret);
  }

  async authorize(): Promise<{ state: string; authorization_url: string }> {
    const config = await this.configuration();
    const state = oidc.randomState();
    const pending: PendingSignIn = { code_verifier: oidc.randomPKCECodeVerifier(), nonce: oidc.randomNonce() };
    await this.redis.set(this.stateKey(state), JSON.stringify(pending), "EX", STATE_TTL_SECONDS);
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: this.settings.redirectUri,
      scope: SCOPE,
      state,
      nonce: pending.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(pending.code_verifier),
      code_challenge_method: "S256",
    });
    return { state, authorization_url: url.href };
  }

  /** Exchanges the code; resolves to the verified Google profile of the person signing in. */
  async callback({ code, state, iss }: GoogleCallback): Promise<GoogleProfile> {
    const config = await this.configuration();
    const raw = await this.redis.getdel(this.stateKey(state));
    if (raw === null) throw new DomainError("invalid", AUTH_MESSAGES.invalidGoogleState);
    const pending = JSON.parse(raw) as PendingSignIn;

    const callbackUrl = new URL(this.settings.redirectUri);
    callbackUrl.searchParams.set("code", code);
    callbackUrl.searchParams.set("state", state);
    // RFC 9207: the web app forwards only code and state. We talk to a single issuer, so when the
    // provider announces the `iss` parameter and the client did not pass it on, it is that issuer.
    const issuer = iss ?? (config.serverMetadata().authorization_response_iss_parameter_supported ? config.serverMetadata().issuer : undefined);
    if (issuer !== undefined) callbackUrl.searchParams.set("iss", issuer);

    let claims: Record<string, unknown>;
    try {
      const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: pending.code_verifier,
        expectedState: state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      claims = { ...tokens.claims() };
      if (typeof claims.email !== "string") {
        claims = { ...claims, ...(await oidc.fetchUserInfo(config, tokens.access_token, String(claims.sub))) };
      }
    } catch (error) {
      throw this.failure(error);
    }
    if (typeof claims.sub !== "string" || typeof claims.email !== "string") {
      this.logger.warn({ claims: Object.keys(claims) }, "Google sign-in without a subject or email");
      throw new DomainError("invalid", AUTH_MESSAGES.googleFailed);
    }
    if (claims.email_verified !== true) throw new DomainError("invalid", AUTH_MESSAGES.googleEmailUnverified);
    return {
      subject: claims.sub,
      email: claims.email.trim().toLowerCase(),
      name: typeof claims.name === "string" && claims.name.trim() !== "" ? claims.name.trim() : null,
      avatar_url: typeof claims.picture === "string" && /^https?:\/\//.test(claims.picture) ? claims.picture : null,
    };
  }

  /** The provider's metadata, discovered once (retried after a failure). */
  private configuration(): Promise<oidc.Configuration> {
    const { issuer, clientId, clientSecret } = this.settings;
    if (!clientId || !clientSecret) return Promise.reject(new DomainError("unavailable", AUTH_MESSAGES.googleNotConfigured));
    this.config ??= (async () => {
      const server = new URL(issuer);
      // Plain HTTP only for an issuer on this machine (tests, local development).
      const loopback = server.protocol === "http:" && ["127.0.0.1", "localhost", "[::1]"].includes(server.hostname);
      return oidc.discovery(server, clientId, clientSecret, undefined, {
        execute: loopback ? [oidc.allowInsecureRequests] : [],
        timeout: 10,
      });
    })();
    return this.config.catch((error: unknown) => {
      this.config = null;
      this.logger.error({ err: error, issuer }, "Google OpenID discovery failed");
      throw new DomainError("unavailable", AUTH_MESSAGES.googleUnavailable);
    });
  }

  /** Network trouble is a 502; anything the provider or the checks refused is a 400. */
  private failure(error: unknown): DomainError {
    if (error instanceof DomainError) return error;
    this.logger.warn({ err: error }, "Google sign-in failed");
    if (error instanceof TypeError) return new DomainError("upstream-failed", AUTH_MESSAGES.googleUnavailable);
    return new DomainError("invalid", AUTH_MESSAGES.googleFailed);
  }

  private stateKey(state: string): string {
    return googleStateKey(this.keyPrefix, state);
  }
}
