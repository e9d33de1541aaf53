import { createHash, randomBytes } from "node:crypto";
import { chmod, link, mkdir, readFile, rename, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { ConfigError, type GatewayEnv } from "@sd/config";

/** Development and test keep generated secrets here, so a restart keeps sessions valid. */
export const SECRETS_FILE = "secrets.json";

type SecretsEnv = Pick<GatewayEnv, "NODE_ENV" | "DATA_DIR" | "JWT_SECRET">;
type ApiKeySecretsEnv = Pick<GatewayEnv, "NODE_ENV" | "DATA_DIR" | "API_KEY_ENCRYPTION_KEY">;

/**
 * The access-token signing key: JWT_SECRET when set. In production it is required (the
 * gateway refuses to start without it); in development and test one is generated once and kept
 * in `${DATA_DIR}/secrets.json` (mode 0600).
 */
export async function resolveJwtSecret(env: SecretsEnv): Promise<string> {
  return env.JWT_SECRET || developmentSecret(env, "JWT_SECRET", "the key that signs access tokens (at least 32 characters, e.g. `openssl rand -base64 48`).", "jwt_secret");
}

/**
 * The AES-256-GCM key (32 bytes) that encrypts stored API keys: API_KEY_ENCRYPTION_KEY (base64)
 * when set. In production it is required, like JWT_SECRET; in development and test one is
 * generated once into `${DATA_DIR}/secrets.json`, and the 32 bytes are the SHA-256 of that secret
 * (48 random bytes), so any secret kept there yields a key of the right size.
 */
export async function resolveApiKeyEncryptionKey(env: ApiKeySecretsEnv): Promise<Buffer> {
  if (env.API_KEY_ENCRYPTION_KEY) return Buffer.from(env.API_KEY_ENCRYPTION_KEY, "base64");
  const secret = await developmentSecret(
    env,
    "API_KEY_ENCRYPTION_KEY",
    "the key that encrypts stored API keys (32 random bytes in base64, e.g. `openssl rand -base64 32`).",
    "api_key_encryption_key",
  );
  return createHash("sha256").update(secret).digest();
}

/** A secret that production must be given in `variable`; elsewhere generated once under DATA_DIR as `name`. */
async function developmentSecret(env: Pick<SecretsEnv, "NODE_ENV" | "DATA_DIR">, variable: string, purpose: string, name: string): Promise<string> {
  if (env.NODE_ENV === "production") throw new ConfigError(`${variable}: required in production, ${purpose}`);
  return generatedSecret(env.DATA_DIR, name);
}

/** A secret kept in `${dataDir}/secrets.json`, generated the first time it is asked for. */
export async function generatedSecret(dataDir: string, name: string): Promise<string> {
  const path = join(dataDir, SECRETS_FILE);
  // Owner-only, as the embedded store makes it (with MONGO_URL set, this may be the first to create it).
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  for (let attempt = 0; attempt < 5; attempt++) {
    const secrets = await readSecrets(path);
    const existing = secrets?.[name];
    if (typeof existing === "string" && existing.length >= 32) {
      await chmod(path, 0o600);
      return existing;
    }
    const value = randomBytes(48).toString("base64url");
    const next = JSON.stringify({ ...secrets, [name]: value }, null, 2) + "\n";
    const temp = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
    await writeFile(temp, next, { mode: 0o600, flush: true });
    try {
      if (secrets === null) {
        // First secret: link() fails if another process created the file meanwhile; then read theirs.
        await link(temp, path);
        await unlink(temp);
      } else {
        await rename(temp, path);
      }
      return value;
    } catch (error) {
      await unlink(temp).catch(() => undefined);
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
  throw new Error(`could not create ${path}`);
}

async function readSecrets(path: string): Promise<Record<string, unknown> | null> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw new ConfigError(`${path}: not a JSON object; fix or delete it (sessions signed with it end)`);
}
