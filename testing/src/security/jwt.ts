import { createHmac, sign, type KeyObject } from "node:crypto";

/**
 * JSON Web Tokens written by hand, so a test can make any token an attacker could: any header
 * (`alg: none`, RS256), any payload, any key, or a real token with one part swapped. A JWT
 * library would refuse to make most of these.
 */

export type Claims = Record<string, unknown>;

const encodePart = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");

/** `header.payload.signature`, the signature made by `signer` over `header.payload` ("" for none). */
export function encodeJwt(header: object, payload: Claims, signer: (signingInput: string) => string = () => ""): string {
  const signingInput = `${encodePart(header)}.${encodePart(payload)}`;
  return `${signingInput}.${signer(signingInput)}`;
}

/** HMAC-SHA256 with `key`: HS256 (the product's algorithm) with the product's secret or any other key. */
export const hs256 =
  (key: string | Buffer) =>
  (signingInput: string): string =>
    createHmac("sha256", key).update(signingInput).digest("base64url");

/** RSASSA-PKCS1-v1_5 with SHA-256 (RS256) with `privateKey`. */
export const rs256 =
  (privateKey: KeyObject) =>
  (signingInput: string): string =>
    sign("RSA-SHA256", Buffer.from(signingInput), privateKey).toString("base64url");

function parts(token: string): [string, string, string] {
  const split = token.split(".");
  if (split.length !== 3) throw new Error(`not a JWT: ${token.slice(0, 20)}...`);
  return split as [string, string, string];
}

/** The payload of a JWT, unverified. */
export function payloadOf(token: string): Claims {
  return JSON.parse(Buffer.from(parts(token)[1], "base64url").toString("utf8")) as Claims;
}

/** The token with its payload replaced and its header and signature kept. */
export function withPayload(token: string, payload: Claims): string {
  const [header, , signature] = parts(token);
  return `${header}.${encodePart(payload)}.${signature}`;
}

/** The token with one character of its signature changed (in the middle, where every bit counts). */
export function withTamperedSignature(token: string): string {
  const [header, payload, signature] = parts(token);
  const at = Math.floor(signature.length / 2);
  const changed = signature[at] === "A" ? "B" : "A";
  return `${header}.${payload}.${signature.slice(0, at)}${changed}${signature.slice(at + 1)}`;
}
