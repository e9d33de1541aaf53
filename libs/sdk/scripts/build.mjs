// Builds what the package ships: dist/index.js (ES module) and dist/index.cjs (CommonJS), bundled by
// esbuild, and their type declarations dist/index.d.ts and dist/index.d.cts, bundled by rollup-plugin-dts.
// The shared contracts (@sd/contracts, TypeScript sources of a private workspace) are inlined in both;
// zod, socket.io-client and standardwebhooks stay dependencies, so an application shares its copies.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { rollup } from "rollup";
import { dts } from "rollup-plugin-dts";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/**
 * The endpoint definitions carry the whole API's documentation (every endpoint, its descriptions and
 * the OpenAPI examples), which esbuild cannot tree-shake out of the ENDPOINTS table. The SDK calls
 * only the /v1 endpoints (decisions, history, batches) and reads only their paths, methods and success
 * schemas, so in the bundle `@sd/contracts/endpoints` is those endpoints (the same definitions) and the client helpers, and
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
        `import { batchEndpoints } from ${JSON.stringify(join(dir, "batches.ts"))};`,
        `export const ENDPOINTS = Object.fromEntries([...v1Endpoints, ...batchEndpoints].map((endpoint) => [endpoint.operationId, endpoint]));`,
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

const EXTERNAL = ["zod", "socket.io-client", "standardwebhooks"];
const dist = join(root, "dist");

/**
 * Each file is written beside its place and renamed over it: `npm pack` rebuilds while other test
 * files may be running the bundle, and they must see the old file or the new one, never a half.
 */
function put(path, contents) {
  const partial = `${path}.${process.pid}.partial`;
  writeFileSync(partial, contents);
  renameSync(partial, path);
}

async function javascript(format, file) {
  const { outputFiles } = await build({
    entryPoints: [join(root, "src/index.ts")],
    outfile: join(dist, file),
    bundle: true,
    format,
    platform: "neutral",
    target: "es2022",
    external: EXTERNAL,
    plugins: [endpointsForTheSdk],
    legalComments: "none",
    logLevel: "warning",
    write: false,
  });
  for (const output of outputFiles) put(output.path, output.contents);
}

/**
 * One declaration bundle, written twice: index.d.ts types the ES module and index.d.cts the CommonJS
 * one (a package of "type": "module" needs .d.cts for require, or TypeScript reads the CJS entry as ESM).
 */
async function declarations() {
  const bundle = await rollup({
    input: join(root, "src/index.ts"),
    external: (id) => EXTERNAL.some((name) => id === name || id.startsWith(`${name}/`)),
    plugins: [
      dts({
        tsconfig: join(root, "../../tsconfig.base.json"),
        includeExternal: ["@sd/contracts"],
        compilerOptions: { noEmit: false, declaration: true, emitDeclarationOnly: true },
      }),
    ],
  });
  const { output } = await bundle.generate({ format: "es" });
  await bundle.close();
  const [chunk] = output;
  if (output.length !== 1 || chunk.type !== "chunk") throw new Error("the declarations should bundle into one file");
  put(join(dist, "index.d.ts"), chunk.code);
  put(join(dist, "index.d.cts"), chunk.code);
}

mkdirSync(dist, { recursive: true });
await Promise.all([javascript("esm", "index.js"), javascript("cjs", "index.cjs"), declarations()]);
