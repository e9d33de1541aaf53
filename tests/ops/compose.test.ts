import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { loadEnv, providerApiKeyVariable, webhookAllowPrivateUrls, webhookWorkerEnv } from "@sd/config";
import { KNOWN_PROVIDER_IDS } from "@sd/contracts";

/**
 * docker-compose.yml as the compose tools read it: interpolation that one of them rejects or warns
 * about, or a model key that never reaches the process calling that model, shows up only on a
 * self-hoster's machine (a simulated answer where a real one was paid for).
 */
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const COMPOSE_FILE = `${ROOT}docker-compose.yml`;
const run = promisify(execFile);

/** The services that call models: provider-worker (votes), gateway (suggestions), all-in-one (both). */
const MODEL_CALLERS = ["gateway", "provider-worker", "all-in-one"];

type Tool = { name: string; command: string; args: string[] };

async function available(tool: Tool): Promise<Tool | null> {
  try {
    await run(tool.command, [...tool.args, "version"], { timeout: 30_000 });
    return tool;
  } catch {
    return null;
  }
}

// Debian's Python docker-compose (v1) and the docker compose v2 plugin: the file must satisfy both.
const tools = (
  await Promise.all([available({ name: "docker-compose", command: "docker-compose", args: [] }), available({ name: "docker compose", command: "docker", args: ["compose"] })])
).filter((tool): tool is Tool => tool !== null);
for (const missing of ["docker-compose", "docker compose"].filter((name) => !tools.some((tool) => tool.name === name))) {
  console.warn(`compose.test.ts: \`${missing}\` is not installed here, so docker-compose.yml is not checked with it (Debian: apt-get install docker-compose).`);
}

/** Every variable docker-compose.yml interpolates, each set to a value of its own. */
const everyVariable = (): Record<string, string> => {
  const names = [...readFileSync(COMPOSE_FILE, "utf8").matchAll(/\$\{([A-Z0-9_]+)/g)].map((match) => match[1]!);
  // Ports must be numbers for the file to be valid at all.
  const values: Record<string, string> = Object.fromEntries(names.map((name, i) => [name, name.endsWith("_PORT") ? String(9000 + i) : `value-of-${name.toLowerCase()}`]));
  return { ...values, GATEWAY_PORT: "8080", PROVIDERS: KNOWN_PROVIDER_IDS.join(","), SUGGESTION_PROVIDER: "geminipro" };
};

/** The file as the tool resolves it, with only `vars` in the environment (no host variable leaks in). */
async function resolvedConfig(tool: Tool, vars: Record<string, string>) {
  const { stdout, stderr } = await run(tool.command, [...tool.args, "-f", COMPOSE_FILE, "config"], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/root", ...vars },
    timeout: 60_000,
  });
  return { config: parse(stdout) as { services: Record<string, ComposeService> }, stderr };
}

interface ComposeService {
  image?: string;
  build?: { target?: string };
  environment?: Record<string, string | null>;
  ports?: unknown[];
  healthcheck?: { test?: string[] };
}

/** The Dockerfile's build stages: a service's `build.target` must be one of them. */
const DOCKERFILE_TARGETS = [...readFileSync(`${ROOT}Dockerfile`, "utf8").matchAll(/^FROM \S+ AS (\S+)$/gm)].map((match) => match[1]!);

/** A service's environment as its process sees it (compose writes an unset `${VAR:-}` as ""), in the production images. */
const processEnv = (service: ComposeService) => ({
  ...Object.fromEntries(Object.entries(service.environment ?? {}).filter((entry): entry is [string, string] => entry[1] !== null)),
  NODE_ENV: "production",
});

if (tools.length === 0) {
  describe.skip("docker-compose.yml (no compose tool installed: see the warning above)", () => {
    it("resolves with every variable set, without a warning", () => undefined);
  });
}

for (const tool of tools) describe(`docker-compose.yml read by ${tool.name}`, () => {
  // One run per environment: the Python tool takes seconds to start.
  let withEveryVariable: ReturnType<typeof resolvedConfig> | undefined;
  const resolvedWithEveryVariable = () => (withEveryVariable ??= resolvedConfig(tool, everyVariable()));

  it("resolves with every variable set, without a warning", async () => {
    const { stderr } = await resolvedWithEveryVariable();
    expect(stderr.trim()).toBe("");
  });

  it("resolves with only the required secrets set, without a warning, and links on the published port", async () => {
    const { config, stderr } = await resolvedConfig(tool, { JWT_SECRET: "j".repeat(48), API_KEY_ENCRYPTION_KEY: "k".repeat(44) });
    expect(stderr.trim()).toBe("");
    // Unset PUBLIC_URL means http://127.0.0.1:<PORT>: right only while PORT is the port the host publishes.
    const gateway = config.services.gateway!;
    expect(gateway.environment?.PUBLIC_URL ?? "").toBe("");
    expect(gateway.environment?.PORT).toBe("3000");
  });

  it("refuses to start without the secrets the production images require", async () => {
    await expect(resolvedConfig(tool, { API_KEY_ENCRYPTION_KEY: "k".repeat(44) })).rejects.toThrow(/JWT_SECRET/);
  });

  it("gives every model's API key to every service that calls models", async () => {
    const vars = everyVariable();
    const { config } = await resolvedWithEveryVariable();
    const callers = MODEL_CALLERS.filter((name) => config.services[name]);
    expect(callers).toEqual(expect.arrayContaining(["gateway", "provider-worker"]));
    for (const service of callers) {
      const environment = config.services[service]!.environment ?? {};
      for (const id of KNOWN_PROVIDER_IDS) {
        const variable = providerApiKeyVariable(id);
        expect({ service, variable, value: environment[variable] }).toEqual({ service, variable, value: vars[variable] });
      }
      expect(environment.PROVIDERS).toBe(vars.PROVIDERS);
    }
    expect(config.services.gateway!.environment?.SUGGESTION_PROVIDER).toBe("geminipro");
  });

  it("publishes the gateway on GATEWAY_PORT, where it listens, so its default links open", async () => {
    const { config } = await resolvedWithEveryVariable();
    const gateway = config.services.gateway!;
    expect(gateway.environment?.PORT).toBe("8080");
    expect(JSON.stringify(gateway.ports)).toMatch(/8080.*8080|"8080:8080"/);
  });

  it("builds every service from a Dockerfile target of its own name", async () => {
    const { config } = await resolvedWithEveryVariable();
    const built = Object.entries(config.services).filter(([, service]) => service.build);
    expect(built.map(([name]) => name)).toEqual(expect.arrayContaining(["gateway", "provider-worker", "aggregator", "webhook-worker"]));
    for (const [name, service] of built) {
      expect({ name, target: service.build?.target, image: service.image }).toEqual({ name, target: name, image: `smart-decision-${name}:local` });
      expect(DOCKERFILE_TARGETS, name).toContain(name);
    }
  });

  it("runs the webhook worker on the aggregator's MongoDB and the gateway's queues, checked on its HEALTH_PORT's /ready", async () => {
    const { config } = await resolvedConfig(tool, { JWT_SECRET: "j".repeat(48), API_KEY_ENCRYPTION_KEY: "k".repeat(44) });
    const worker = config.services["webhook-worker"]!;
    const env = loadEnv(webhookWorkerEnv, processEnv(worker));
    // Without MONGO_URL it would refuse to start (the embedded store is one process's).
    expect(env.MONGO_URL).toBe(config.services.aggregator!.environment?.MONGO_URL);
    expect([env.REDIS_URL, env.QUEUE_PREFIX]).toEqual([config.services.gateway!.environment?.REDIS_URL, config.services.gateway!.environment?.QUEUE_PREFIX]);
    expect(worker.healthcheck?.test?.join(" ")).toContain(`http://127.0.0.1:${env.HEALTH_PORT}/ready`);
    // Unset knobs are the code's defaults, and a production image refuses private webhook URLs.
    expect([env.WEBHOOK_WORKER_CONCURRENCY, env.WEBHOOK_CONNECT_TIMEOUT_MS, env.WEBHOOK_RESPONSE_TIMEOUT_MS]).toEqual([10, 5_000, 10_000]);
    expect(webhookAllowPrivateUrls(env)).toBe(false);
  });

  it("gives the webhook worker its WEBHOOK_* settings, and WEBHOOK_ALLOW_PRIVATE_URLS to the gateway too", async () => {
    const { config } = await resolvedWithEveryVariable();
    // everyVariable() gives each interpolated variable a value of its own: one the file never reads stays unset here.
    const value = (variable: string) => `value-of-${variable.toLowerCase()}`;
    const worker = config.services["webhook-worker"]!.environment ?? {};
    for (const variable of ["WEBHOOK_WORKER_CONCURRENCY", "WEBHOOK_CONNECT_TIMEOUT_MS", "WEBHOOK_RESPONSE_TIMEOUT_MS", "WEBHOOK_ALLOW_PRIVATE_URLS"]) {
      expect({ variable, value: worker[variable] }).toEqual({ variable, value: value(variable) });
    }
    // The gateway checks a webhook's URL when it is added, the worker at each delivery: they must agree.
    expect(config.services.gateway!.environment?.WEBHOOK_ALLOW_PRIVATE_URLS).toBe(value("WEBHOOK_ALLOW_PRIVATE_URLS"));
  });

  it("pins mongo and redis to exact versions", async () => {
    const { config } = await resolvedWithEveryVariable();
    expect(config.services.mongo!.image).toMatch(/^mongo:\d+\.\d+\.\d+(@sha256:[0-9a-f]{64})?$/);
    expect(config.services.redis!.image).toMatch(/^redis:\d+\.\d+\.\d+(@sha256:[0-9a-f]{64})?$/);
  });
});
