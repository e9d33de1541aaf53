import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { API_KEY_PREFIX } from "@sd/contracts";
import { generateApiKey, hashApiKey, isWellFormedApiKey, KeyCipher } from "./key-material";

describe("API key material", () => {
  it("issues long random keys with the recognisable prefix, every one different", () => {
    const keys = Array.from({ length: 500 }, generateApiKey);
    expect(new Set(keys).size).toBe(keys.length);
    for (const key of keys) {
      expect(key).toMatch(/^sd_live_[0-9A-Za-z]{43}$/);
      expect(key.startsWith(API_KEY_PREFIX)).toBe(true);
      expect(isWellFormedApiKey(key)).toBe(true);
    }
    // Every base62 character shows up: the secret is not hex or a narrower alphabet.
    expect(new Set(keys.join("").replaceAll(API_KEY_PREFIX, "")).size).toBe(62);
  });

  it("refuses anything that is not a key we issue before any lookup", () => {
    const key = generateApiKey();
    for (const bad of ["", API_KEY_PREFIX, key.slice(0, -1), `${key}x`, key.replace("sd_live_", "sd_test_"), `${key.slice(0, -1)}-`, ` ${key}`]) {
      expect(isWellFormedApiKey(bad)).toBe(false);
    }
  });

  it("hashes with SHA-256 (hex), the same key to the same hash", () => {
    // The FIPS 180-2 test vector.
    expect(hashApiKey("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(hashApiKey("sd_live_abc")).toBe(hashApiKey("sd_live_abc"));
    expect(hashApiKey("sd_live_abc")).not.toBe(hashApiKey("sd_live_abd"));
  });

  describe("KeyCipher (AES-256-GCM)", () => {
    const cipher = new KeyCipher(randomBytes(32));
    const key = generateApiKey();
    const hash = hashApiKey(key);

    it("decrypts what it encrypted, never storing the key in the clear, with a fresh IV each time", () => {
      const first = cipher.encrypt(key, hash);
      const second = cipher.encrypt(key, hash);
      expect(first).not.toBe(second);
      expect(first).not.toContain(key.slice(API_KEY_PREFIX.length, API_KEY_PREFIX.length + 8));
      expect(cipher.decrypt(first, hash)).toBe(key);
      expect(cipher.decrypt(second, hash)).toBe(key);
    });

    it("refuses a changed ciphertext, another record's hash, and another encryption key", () => {
      const stored = cipher.encrypt(key, hash);
      const [version, iv, tag, body] = stored.split(".") as [string, string, string, string];
      const flipped = Buffer.from(body, "base64url");
      flipped[0] = flipped[0]! ^ 1;
      expect(() => cipher.decrypt([version, iv, tag, flipped.toString("base64url")].join("."), hash)).toThrow();
      expect(() => cipher.decrypt(stored, hashApiKey(generateApiKey()))).toThrow();
      expect(() => new KeyCipher(randomBytes(32)).decrypt(stored, hash)).toThrow();
      expect(() => cipher.decrypt("not-encrypted", hash)).toThrow(/not an encrypted API key/);
    });

    it("needs a 32-byte key", () => {
      expect(() => new KeyCipher(randomBytes(16))).toThrow(RangeError);
    });
  });
});
