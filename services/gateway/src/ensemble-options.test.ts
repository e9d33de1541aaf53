import { describe, expect, it } from "vitest";
import { ConfigError, gatewayEnv, loadEnv, providersFromEnv } from "@sd/config";
import { EnsembleDefaults } from "./ensemble-options";
import { DomainError } from "./use-cases/errors";

/** The gateway's ensemble defaults as a start with `vars` (and nothing else) would build them. */
function defaultsFor(vars: Record<string, string> = {}): EnsembleDefaults {
  const env = loadEnv(gatewayEnv, vars);
  return new EnsembleDefaults(providersFromEnv(env.PROVIDERS, vars), env);
}

describe("ensemble defaults at start", () => {
  it("with no configuration: every marketed model may be asked, the playground's three are the panel and GPT-5 judges", () => {
    const defaults = defaultsFor();
    expect(defaults.panel).toEqual(["openai", "gemini", "claude"]);
    expect(defaults.judge).toBe("gpt5");
    const resolved = defaults.resolve({ question: "Ship?", categories: ["Yes", "No"], images: [], models: ["gpt5", "geminipro", "haiku", "deepseek", "llama", "grok", "openai", "gemini"] }, false);
    expect(resolved.panel).toHaveLength(8);
  });

  it("refuses to start when PANEL or JUDGE_PROVIDER names a model outside PROVIDERS, naming the variable", () => {
    expect(() => defaultsFor({ PROVIDERS: "openai,gemini", PANEL: "openai,claude" })).toThrow(new ConfigError("PANEL: claude not in PROVIDERS (openai, gemini)"));
    expect(() => defaultsFor({ PROVIDERS: "openai,gemini", PANEL: "openai", JUDGE_PROVIDER: "gpt5" })).toThrow(/^JUDGE_PROVIDER: gpt5 is not in PROVIDERS/);
    // Without GPT-5 configured, the panel's first model judges.
    expect(defaultsFor({ PROVIDERS: "openai,gemini", PANEL: "gemini,openai" }).judge).toBe("gemini");
  });

  it("learned weights need each model's measured accuracy, and come from the log-odds rule", () => {
    expect(() => defaultsFor({ PROVIDERS: "openai,gemini", PANEL: "openai,gemini", WEIGHTING: "learned", OPENAI_ACCURACY: "0.9" })).toThrow(/^GEMINI_ACCURACY: required with WEIGHTING=learned/);
    const defaults = defaultsFor({ PROVIDERS: "openai,gemini", PANEL: "openai,gemini", WEIGHTING: "learned", OPENAI_ACCURACY: "0.9", GEMINI_ACCURACY: "0.6" });
    const { weights } = defaults.resolve({ question: "Q", categories: ["A", "B", "C", "D"], images: [], ensemble_mode: "weighted_voting" }, false);
    expect(weights.openai).toBeCloseTo(Math.log((0.9 * 3) / 0.1), 10);
    expect(weights.gemini).toBeCloseTo(Math.log((0.6 * 3) / 0.4), 10);
  });

  it("a request naming an unconfigured model or judge is the client's mistake (400), and the early-quorum default is the endpoint's", () => {
    const defaults = defaultsFor({ PROVIDERS: "openai,gemini,claude" });
    const request = { question: "Q", categories: ["A", "B"], images: [] };
    expect(() => defaults.resolve({ ...request, models: ["openai", "nope"] }, false)).toThrow(DomainError);
    expect(() => defaults.resolve({ ...request, ensemble_mode: "judge", judge_model: "nope" }, false)).toThrow(/^Unknown judge_model: nope\./);
    expect(defaults.resolve(request, true).earlyQuorum).toBe(true);
    expect(defaults.resolve({ ...request, early_quorum: false }, true).earlyQuorum).toBe(false);
    expect(defaults.resolve(request, false)).toMatchObject({ mode: "majority_voting", panel: ["openai", "gemini", "claude"], weights: { openai: 1, gemini: 1, claude: 1 }, judge: null, maxRounds: 3 });
  });
});
