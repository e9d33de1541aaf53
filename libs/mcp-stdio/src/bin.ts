import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import { configFromEnv, createBridge } from "./bridge";

/** Replaced by the build with the package's version. */
declare const __PACKAGE_VERSION__: string;
const VERSION = typeof __PACKAGE_VERSION__ === "string" ? __PACKAGE_VERSION__ : "0.0.0-dev";

// stdout is the protocol: everything for people goes to stderr, which desktop clients keep as the server's log.
const log = (line: string) => process.stderr.write(`smart-decision-mcp: ${line}\n`);

const config = configFromEnv(process.env);
if ("error" in config) {
  log(config.error);
  process.exit(1);
}

// The client closing stdin ends the session: once the remote connection is closed, so is the process.
const bridge = createBridge({ ...config, version: VERSION, log, onClosed: () => process.exit(0) });
await bridge.connect(new StdioServerTransport());
log(`forwarding to ${config.endpoint.href}`);
