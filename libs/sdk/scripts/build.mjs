// Builds dist/index.js: one ES module that plain Node (no TypeScript loader) and bundlers can import.
// The shared contracts (@sd/contracts, TypeScript sources in this repository) are bundled in;
// zod and socket.io-client stay dependencies, so an application shares its copies.
import { readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * The endpoint definitions carry the whole API's documentation (every endpoint, its descriptions and
 * the OpenAPI examples), which esbuild cannot tree-shake out of the ENDPOINTS table. The SDK calls
 * only the /v1 endpoints and reads only their paths, methods and success schemas, so in the bundle
 * `@sd/contracts/endpoints` is the /v1 endpoints (the same definitions) and the client helpers, and
 * the examples module is a stub whose every value reads as empty.
 */
const endpointsForTheSdk = {
  name: "endpoints-for-the-sdk",
  setup(build) {
    build.onResolve({ filter: /^@sd\/contracts\/endpoints$/ }, async (args) => {
      if (args.pluginData === "real") return undefined;
      const real = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, pluginData: "real" });
      if (real.errors.length > 0) return { errors: real.errors };
      return { path: real.path, namespace: "sdk-endpoints" };
    });
    build.onLoad({ filter: /.*/, namespace: "sdk-endpoints" }, (args) => {
      const dir = dirname(args.path);
      const contents = [
        `import { v1Endpoints } from ${JSON.stringify(join(dir, "v1.ts"))};`,
        `export const ENDPOINTS = Object.fromEntries(v1Endpoints.map((endpoint) => [endpoint.operationId, endpoint]));`,
        `export * from ${JSON.stringify(join(dir, "client.ts"))};`,
      ].join("\n");
      return { contents, loader: "js", resolveDir: dir };
    });
    build.onLoad({ filter: /[\\/]contracts[\\/]src[\\/]endpoints[\\/]examples\.ts$/ }, (args) => {
      const names = [...readFileSync(args.path, "utf8").matchAll(/^export const (\w+)/gm)].map((match) => match[1]);
      const contents = [
        // Callable, indexable, spreadable (no own keys) and empty in a template string: every use the definitions make of an example.
        `const blank = new Proxy(() => blank, { get: (_target, key) => (key === Symbol.toPrimitive ? () => "" : blank), apply: () => blank, ownKeys: () => [] });`,
        ...names.map((name) => `export const ${name} = blank;`),
      ].join("\n");
      return { contents, loader: "js" };
    });
  },
};

rmSync(join(root, "dist"), { recursive: true, force: true });
await build({
  entryPoints: [join(root, "src/index.ts")],
  outfile: join(root, "dist/index.js"),
  bundle: true,
  format: "esm",
  platform: "neutral",
  target: "es2022",
  external: ["zod", "socket.io-client"],
  plugins: [endpointsForTheSdk],
  sourcemap: true,
  legalComments: "none",
  logLevel: "warning",
});
