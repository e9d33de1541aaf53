import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { API_KEY_PREFIX } from "@sd/contracts";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/** 32 random bytes (256 bits) written in base62 always fit in 43 characters. */
const SECRET_LENGTH = 43;
const API_KEY_PATTERN = new RegExp(`^${API_KEY_PREFIX}[0-9A-Za-z]{${SECRET_LENGTH}}$`);

/**
 * A new API key: `sd_live_` and 32 random bytes in base62 (43 characters). The prefix makes a
 * leaked key recognisable (and findable by secret scanners); base62 selects with one double-click.
 */
export function generateApiKey(): string {
  let value = BigInt(`0x${randomBytes(32).toString("hex")}`);
  let secret = "";
  while (value > 0n) {
    secret = BASE62[Number(value % 62n)]! + secret;
    value /= 62n;
  }
  return API_KEY_PREFIX + secret.padStart(SECRET_LENGTH, "0");
}

/** True when `value` has the shape of a key we issue, so anything else is refused without a lookup. */
export function isWellFormedApiKey(value: string): boolean {
  return API_KEY_PATTERN.test(value);
}

/**
 * How a key is found: its SHA-256, hex. A plain hash suffices (no salt, no slow hash) because the
 * key is 256 random bits, not a password: there is nothing to guess.
 */
export function hashApiKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

const VERSION = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * AES-256-GCM encryption of stored keys, so their owner can reveal them later. Each encryption
 * has a random 12-byte IV; the authentication tag makes any change to the ciphertext fail, and
 * the key's hash is authenticated with it (associated data), so a ciphertext copied onto another
 * key's record does not decrypt there. Stored as `v1.<iv>.<tag>.<ciphertext>` (base64url).
 */
export class KeyCipher {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new RangeError(`AES-256-GCM needs a 32-byte key, got ${key.length} bytes`);
  }

  encrypt(plain: string, keyHash: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(keyHash, "utf8"));
    const ciphertext = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
    return [VERSION, iv, cipher.getAuthTag(), ciphertext].map((part) => (typeof part === "string" ? part : part.toString("base64url"))).join(".");
  }

  /** The key, or an error when the ciphertext was changed, belongs to another record, or was made with another encryption key. */
  decrypt(stored: string, keyHash: string): string {
    const [version, iv, tag, ciphertext, ...rest] = stored.split(".");
    if (version !== VERSION || iv === undefined || tag === undefined || ciphertext === undefined || rest.length > 0) {
      throw new Error("not an encrypted API key");
    }
    const decipher = createDecipheriv("aes-256-gcm", this.key, Buffer.from(iv, "base64url"), { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(keyHash, "utf8"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
  }
}
