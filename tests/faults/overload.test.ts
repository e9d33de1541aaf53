import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "@sd/contracts";
import { useEmulator } from "@sd/provider-emulator/testing";
import { postJson } from "@sd/testing/client";
import { testEnv } from "@sd/testing/env";
import { callApi } from "@sd/testing/history";
import { startStack, type InProcessStack } from "@sd/testing/stack";

/**
 * Overload: a gateway with MAX_IN_FLIGHT_DECISIONS decisions in flight refuses the next one at
 * once with 503 and Retry-After, instead of queueing it behind the others; the decisions already
 * accepted finish normally, and once they have, new decisions are accepted again.
 */
const PUBLIC = "/api/ensembled-llm-categorical-decision-public";
const emulator = useEmulator();
let stack: InProcessStack;

beforeAll(async () => {
  stack = await startStack(testEnv(emulator.url, { MAX_IN_FLIGHT_DECISIONS: "2", OVERLOAD_RETRY_AFTER_SECONDS: "3" }));
});
afterAll(async () => {
  await stack?.close();
});

const decide = (question: string) => postJson(`${stack.url}${PUBLIC}`, { question, categories: ["Yes", "No"] });

describe("a gateway at its in-flight limit", () => {
  it("answers 503 with Retry-After at once, keeps the accepted decisions, and accepts again once they are done", async () => {
    // The two accepted decisions are held by slow models until the refusal has been seen.
    emulator.addRules({ match: { question_contains: "held" }, latency_ms: 1500, respond: { kind: "answer", category: "Yes" } });
    const accepted = [decide("First held decision?"), decide("Second held decision?")];
    let acceptedDone = false;
    void Promise.all(accepted).then(() => (acceptedDone = true));
    await Promise.all(["First held", "Second held"].map((q) => emulator.waitForCall((call) => call.prompt_text.includes(q))));

    const refused = await callApi(stack.url, PUBLIC, null, { body: { question: "One too many?", categories: ["Yes", "No"] } });
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("3");
    expect(refused.body).toEqual({ detail: MESSAGES.overloaded });
    // Refused at the door: while the accepted decisions still run, and no model was asked.
    expect(acceptedDone).toBe(false);
    expect(emulator.calls().some((call) => call.prompt_text.includes("One too many"))).toBe(false);

    for (const response of await Promise.all(accepted)) {
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ final_decision: "Yes", total_votes: 3 });
    }
    const after = await decide("Room again?");
    expect(after.status).toBe(200);
  });
});
