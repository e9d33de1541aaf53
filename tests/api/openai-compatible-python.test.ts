import { execFile } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { ApiKeySchema } from "@sd/contracts";
import { useEmulator } from "@sd/provider-emulator/testing";
import { callApi } from "@sd/testing/history";
import { useStackWithMail } from "@sd/testing/stack-with-mail";

/**
 * `/v1/chat/completions` from Python. Python's `openai` package cannot be installed here (Debian has
 * none and PyPI is out of reach), so the script speaks OpenAI's documented wire format with
 * `requests`: a completion, the same request streamed as Server-Sent Events, and a refused key.
 */
const run = promisify(execFile);
const PYTHON = process.env.PYTHON ?? "python3";
const SCRIPT = join(dirname(fileURLToPath(import.meta.url)), "python/openai_wire.py");

const emulator = useEmulator();
const stack = useStackWithMail(emulator, { API_KEY_RATE_LIMIT_PER_MINUTE: "1000" });

let hasRequests = false;
let key = "";
beforeAll(async () => {
  hasRequests = await run(PYTHON, ["-c", "import requests"]).then(
    () => true,
    () => false,
  );
  const alice = await stack.signIn();
  const answer = await callApi(stack.url, "/api/api-keys", alice.tokens.access_token, { body: { name: "Python" } });
  key = ApiKeySchema.parse(answer.body).keyvalue!;
});

describe("OpenAI's wire format from Python's requests", () => {
  it("decides, streams each vote then the answer, and refuses a wrong key in OpenAI's error shape", async (context) => {
    if (!hasRequests) context.skip(`${PYTHON} has no requests module (Debian: python3-requests; set PYTHON to another interpreter)`);
    emulator.addRules(
      // Ship, Wait, then the deciding vote: early quorum (on by default) cannot skip any, so every vote is counted.
      (["openai", "gemini", "anthropic"] as const).map((vendor, i) => ({
        match: { vendor, question_contains: "[python]" },
        latency_ms: i * 50,
        respond: { kind: "answer" as const, category: vendor === "gemini" ? "Wait" : "Ship", confidence: 0.8, usage: { input_tokens: 10, output_tokens: 2 } },
      })),
    );
    const { stdout } = await run(PYTHON, [SCRIPT, "[python] Ship the release today?"], { env: { ...process.env, SD_BASE_URL: `${stack.url}/v1`, SD_API_KEY: key } });
    expect(stdout.trim().split("\n")).toEqual([
      "answer Ship",
      "usage 36",
      "done",
      "streamed votes claude,gemini,openai",
      "streamed answer Ship",
      "refused 401 invalid_api_key",
    ]);
  });
});
