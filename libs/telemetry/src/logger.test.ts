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

describe("what a log line may carry", () => {
  function capture() {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString().split("\n").filter(Boolean));
        done();
      },
    });
    return { logger: createLogger("test", "info", sink), lines };
  }
  const image = `data:image/png;base64,${Buffer.alloc(600_000, 7).toString("base64")}`;
  const base64 = image.slice("data:image/png;base64,".length, "data:image/png;base64,".length + 200);

  /** What ioredis rejects a MULTI with when Redis is at maxmemory: the previous errors keep each command's arguments. */
  function refusedTransaction(): Error {
    const oom = Object.assign(new Error("OOM command not allowed when used memory > 'maxmemory'."), {
      name: "ReplyError",
      command: { name: "set", args: ["sd:image:1", image, "EX", "3600"] },
    });
    return Object.assign(new Error("EXECABORT Transaction discarded because of previous errors."), {
      name: "ReplyError",
      command: { name: "exec", args: [] },
      previousErrors: [oom],
    });
  }

  it("keeps an error's type, message and command name, but never the command's arguments", () => {
    const { logger, lines } = capture();
    logger.error({ err: refusedTransaction() }, "unhandled error");
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!) as { err: { message: string; command: string; previousErrors: Array<{ message: string; command: string }> } };
    expect(line.err.message).toContain("EXECABORT");
    expect(line.err.command).toBe("exec");
    expect(line.err.previousErrors[0]).toMatchObject({ command: "set", message: expect.stringContaining("OOM") as unknown });
    expect(lines[0]!.length).toBeLessThan(4096);
    expect(lines[0]).not.toContain(base64);
    expect(lines[0]).not.toContain("sd:image:1");
  });

  it("drops data URLs, bodies and long strings from any field and from the message", () => {
    const { logger, lines } = capture();
    logger.warn({ reason: `bad image ${image}`, body: { question: "private" }, note: "x".repeat(50_000), nested: { deeper: { images: [image] } } }, `got ${image}`);
    expect(lines[0]!.length).toBeLessThan(4096);
    expect(lines[0]).not.toContain(base64);
    expect(lines[0]).not.toContain("private");
    expect(lines[0]).toContain("[data URL, ");
    expect(lines[0]).toContain("[50000 chars]");
  });

  it("follows causes a few levels deep, and no deeper", () => {
    const { logger, lines } = capture();
    let error: Error = Object.assign(new Error("innermost"), { body: image });
    for (let level = 0; level < 10; level++) error = new Error(`level ${level}`, { cause: error });
    logger.error(error);
    expect(lines[0]).toContain("level 9");
    expect(lines[0]).toContain("level 6");
    expect(lines[0]).not.toContain("innermost");
    expect(lines[0]).not.toContain(base64);
    expect(lines[0]!.length).toBeLessThan(4096);
  });
});
