import { randomUUID, type KeyObject } from "node:crypto";
import { API_KEY_MESSAGES } from "@sd/contracts";
import type { Credential } from "./http";
import { encodeJwt, hs256, payloadOf, rs256, withPayload, withTamperedSignature, type Claims } from "./jwt";

/** What an attack is made from: the victim's real credentials, the attacker's own, and the product's key for the near misses. */
export interface ForgeryContext {
  /** The product's JWT_SECRET (the test sets it), for tokens correct in everything but one point. */
  secret: string;
  /** The user a forged token claims to be, and their real credentials. */
  victim: { accessToken: string; refreshToken: string; apiKey: string };
  /** A real access token of the attacker, a signed-in user who is not an admin. */
  attackerToken: string;
  adminEmail: string;
  /** A real queue-view session of an admin (same key and issuer as access tokens, another audience). */
  queueSession: string;
  /** An RSA key pair the product has never seen. */
  rsa: { privateKey: KeyObject; publicKeyPem: string };
}

export interface Forgery {
  name: string;
  forge(context: ForgeryContext): string;
}

const HS256 = { alg: "HS256", typ: "JWT" };
const now = () => Math.floor(Date.now() / 1000);

/** The victim's claims as the product writes them (read from their real token), freshly dated. */
function victimClaims(context: ForgeryContext, overrides: Claims = {}): Claims {
  return { ...payloadOf(context.victim.accessToken), iat: now(), exp: now() + 300, jti: randomUUID(), ...overrides };
}

/** Signed with the product's own key: accepted unless `overrides` break a rule. */
const signedByProduct = (context: ForgeryContext, overrides: Claims = {}) => encodeJwt(HS256, victimClaims(context, overrides), hs256(context.secret));

/** Tokens the product must accept: without them a refusal below could come from a broken test. */
export const TOKEN_CONTROLS: readonly Forgery[] = [
  { name: "the victim's own access token", forge: (c) => c.victim.accessToken },
  { name: "the victim's claims signed with the product's key (each attack differs from it in one point)", forge: (c) => signedByProduct(c) },
];

/** Every way of presenting a bearer token the product did not issue for this use. */
export const TOKEN_ATTACKS: readonly Forgery[] = [
  { name: 'alg "none", no signature', forge: (c) => encodeJwt({ alg: "none", typ: "JWT" }, victimClaims(c)) },
  {
    name: 'alg "NONE" over the real payload and signature',
    forge: (c) => encodeJwt({ alg: "NONE", typ: "JWT" }, payloadOf(c.victim.accessToken), () => c.victim.accessToken.split(".")[2]!),
  },
  { name: "RS256 signed with a fresh RSA key", forge: (c) => encodeJwt({ alg: "RS256", typ: "JWT" }, victimClaims(c), rs256(c.rsa.privateKey)) },
  { name: "HS256 whose HMAC key is an RSA public key (PEM)", forge: (c) => encodeJwt(HS256, victimClaims(c), hs256(c.rsa.publicKeyPem)) },
  { name: "the victim's claims under the attacker's signature", forge: (c) => withPayload(c.attackerToken, payloadOf(c.victim.accessToken)) },
  {
    name: "admin claims (is_admin, role, an admin's email) under the attacker's signature",
    forge: (c) => withPayload(c.attackerToken, { ...payloadOf(c.attackerToken), email: c.adminEmail, is_admin: true, role: "admin" }),
  },
  { name: "the victim's token with its signature tampered", forge: (c) => withTamperedSignature(c.victim.accessToken) },
  { name: "the victim's token without its signature", forge: (c) => `${c.victim.accessToken.split(".").slice(0, 2).join(".")}.` },
  { name: "expired five seconds ago", forge: (c) => signedByProduct(c, { iat: now() - 905, exp: now() - 5 }) },
  { name: "for another audience", forge: (c) => signedByProduct(c, { aud: "another-api" }) },
  { name: "from another issuer", forge: (c) => signedByProduct(c, { iss: "someone-else" }) },
  { name: "signed with another secret", forge: (c) => encodeJwt(HS256, victimClaims(c), hs256(`${c.secret}-but-another-one`)) },
  { name: "the victim's refresh token", forge: (c) => c.victim.refreshToken },
  { name: "the victim's API key", forge: (c) => c.victim.apiKey },
  { name: "an admin's queue-view session", forge: (c) => c.queueSession },
];

export interface KeyAttack {
  name: string;
  credential(context: ForgeryContext): Credential;
  /** The `detail` of the 401. */
  detail: string;
}

/** Presenting something other than an API key to the SD-API-KEY endpoints. */
export const KEY_ATTACKS: readonly KeyAttack[] = [
  { name: "an access token in SD-API-KEY", credential: (c) => ({ apiKey: c.victim.accessToken }), detail: API_KEY_MESSAGES.invalidKey },
  { name: "a refresh token in SD-API-KEY", credential: (c) => ({ apiKey: c.victim.refreshToken }), detail: API_KEY_MESSAGES.invalidKey },
  {
    name: "the API key with its last character changed",
    credential: (c) => ({ apiKey: `${c.victim.apiKey.slice(0, -1)}${c.victim.apiKey.endsWith("A") ? "B" : "A"}` }),
    detail: API_KEY_MESSAGES.invalidKey,
  },
  { name: "the API key as a bearer token", credential: (c) => ({ bearer: c.victim.apiKey }), detail: API_KEY_MESSAGES.missingKey },
];
