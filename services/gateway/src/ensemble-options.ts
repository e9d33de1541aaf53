import { ConfigError, type GatewayEnv } from "@sd/config";
import { DEFAULT_ENSEMBLE_MODE, type DecisionRequest, type EnsembleMode, type ProviderConfig } from "@sd/contracts";
import { logOddsWeight } from "@sd/ensemble";
import { DomainError } from "./use-cases/errors";

/** A request's ensemble, resolved against the configured models: what the aggregate job carries. */
export interface ResolvedEnsemble {
  mode: EnsembleMode;
  /** The models asked, in row order. */
  panel: string[];
  /** Each panel model's vote weight (weighted voting; 1 each otherwise). */
  weights: Record<string, number>;
  earlyQuorum: boolean;
  maxRounds: number;
  judge: string | null;
}

/**
 * The configured models and the defaults of a request's ensemble options (PANEL, JUDGE_PROVIDER,
 * WEIGHTING, GOSSIP_ROUNDS). Checked once at start: a default naming an unconfigured model, or
 * learned weights without a model's measured accuracy, stop the gateway with the variable's name.
 */
export class EnsembleDefaults {
  private readonly models: ReadonlyMap<string, ProviderConfig>;
  readonly panel: readonly string[];
  readonly judge: string;
  readonly rounds: number;

  constructor(
    deciders: readonly ProviderConfig[],
    private readonly env: Pick<GatewayEnv, "PANEL" | "JUDGE_PROVIDER" | "WEIGHTING" | "GOSSIP_ROUNDS" | "PROVIDERS">,
  ) {
    this.models = new Map(deciders.map((config) => [config.id, config]));
    const missing = env.PANEL.filter((id) => !this.models.has(id));
    if (missing.length > 0) throw new ConfigError(`PANEL: ${missing.join(", ")} not in PROVIDERS (${env.PROVIDERS.join(", ")})`);
    this.panel = env.PANEL;
    this.rounds = env.GOSSIP_ROUNDS;
    this.judge = env.JUDGE_PROVIDER ?? (this.models.has("gpt5") ? "gpt5" : env.PANEL[0]!);
    if (!this.models.has(this.judge)) throw new ConfigError(`JUDGE_PROVIDER: ${this.judge} is not in PROVIDERS (${env.PROVIDERS.join(", ")})`);
    if (env.WEIGHTING === "learned") {
      const unmeasured = deciders.filter((config) => config.accuracy == null).map((config) => `${config.id.toUpperCase()}_ACCURACY`);
      if (unmeasured.length > 0) throw new ConfigError(`${unmeasured.join(", ")}: required with WEIGHTING=learned (each model's measured accuracy, 0 to 1)`);
    }
  }

  /** The request's options with every default applied; a model that is not configured is the client's mistake (400). */
  resolve(request: DecisionRequest, earlyQuorumByDefault: boolean): ResolvedEnsemble {
    const panel = request.models ? [...new Set(request.models)] : [...this.panel];
    const unknown = panel.filter((id) => !this.models.has(id));
    if (unknown.length > 0) throw new DomainError("invalid", `Unknown model: ${unknown.join(", ")}. Choose from ${[...this.models.keys()].join(", ")}.`);
    const judge = request.judge_model ?? this.judge;
    if (!this.models.has(judge)) throw new DomainError("invalid", `Unknown judge_model: ${judge}. Choose from ${[...this.models.keys()].join(", ")}.`);
    const mode = request.ensemble_mode ?? DEFAULT_ENSEMBLE_MODE;
    return {
      mode,
      panel,
      weights: Object.fromEntries(panel.map((id) => [id, mode === "weighted_voting" ? this.weight(id, request.categories.length) : 1])),
      earlyQuorum: request.early_quorum ?? earlyQuorumByDefault,
      maxRounds: request.max_rounds ?? this.env.GOSSIP_ROUNDS,
      judge: mode === "judge" ? judge : null,
    };
  }

  /** A weighted vote's weights for this panel today; null when one of its models is no longer configured. */
  weightsOf(panel: readonly string[], categories: readonly string[]): Record<string, number> | null {
    if (!panel.every((id) => this.models.has(id))) return null;
    return Object.fromEntries(panel.map((id) => [id, this.weight(id, categories.length)]));
  }

  /** Configured, or from the model's measured accuracy by the log-odds rule (optimal for independent voters). */
  private weight(id: string, categoryCount: number): number {
    const config = this.models.get(id)!;
    return this.env.WEIGHTING === "learned" && config.accuracy != null ? logOddsWeight(config.accuracy, categoryCount) : config.weight;
  }
}
