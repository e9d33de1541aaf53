import { describe, expect, it } from "vitest";
import { providersFromEnv } from "@sd/config";
import { providerNames } from "./provider-names";

describe("the names a decision record shows", () => {
  it("give a vote without a version of its own (early quorum skipped it) the worker's version, '(simulated)' included", () => {
    // Claude has no key (simulated), OpenAI has one.
    const names = providerNames(providersFromEnv(["openai", "claude"], { OPENAI_API_KEY: "sk-test" }));
    expect(names.model("claude")).toBe("claude-sonnet-4-6 (simulated)");
    expect(names.model("openai")).toBe("gpt-4o");
    expect(names.label("claude")).toBe("Anthropic Claude Sonnet 4.6");
  });

  it("show a provider configured on the gateway only by its id", () => {
    const names = providerNames([]);
    expect([names.label("mistral"), names.model("mistral")]).toEqual(["mistral", "mistral"]);
  });
});
