// Builds what the package ships: dist/bin.js, one ES module bundled by esbuild from src/bin.ts, run by
// `npx @smart-decision/mcp` (hence the shebang). The MCP SDK stays a dependency, as npm installs it anyway.
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const dist = join(root, "dist");

const { outputFiles } = await build({
  entryPoints: [join(root, "src/bin.ts")],
  outfile: join(dist, "bin.js"),
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "external",
  banner: { js: "#!/usr/bin/env node" },
  // The version the bridge reports to MCP clients is the package's.
  define: { __PACKAGE_VERSION__: JSON.stringify(version) },
  legalComments: "none",
  logLevel: "warning",
  write: false,
});

mkdirSync(dist, { recursive: true });
// Written beside its place and renamed over it: a test may be running the bridge while another rebuilds it.
for (const output of outputFiles) {
  const partial = `${output.path}.${process.pid}.partial`;
  writeFileSync(partial, output.contents);
  chmodSync(partial, 0o755);
  renameSync(partial, output.path);
}
