// Builds dist/index.js: one ES module that plain Node (no TypeScript loader) and bundlers can import.
// The shared contracts (@sd/contracts, TypeScript sources in this repository) are bundled in;
// zod and socket.io-client stay dependencies, so an application shares its copies.
import { rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
rmSync(join(root, "dist"), { recursive: true, force: true });
await build({
  entryPoints: [join(root, "src/index.ts")],
  outfile: join(root, "dist/index.js"),
  bundle: true,
  format: "esm",
  platform: "neutral",
  target: "es2022",
  external: ["zod", "socket.io-client"],
  sourcemap: true,
  legalComments: "none",
  logLevel: "warning",
});
