import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger } from "./logger";

describe("createLogger", () => {
  it("never writes credentials from request headers", () => {
    let output = "";
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        output += chunk.toString();
        done();
      },
    });
    const logger = createLogger("test", "info", sink);
    logger.info({ req: { headers: { authorization: "Bearer secret-token", cookie: "sid=secret-cookie", "sd-api-key": "sd_secret_key" } } }, "request");
    expect(output).toContain('"msg":"request"');
    expect(output).not.toMatch(/secret-token|secret-cookie|sd_secret_key/);
    expect(output).toContain("[redacted]");
  });
});
