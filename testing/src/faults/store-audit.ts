import type { StoredDecision } from "@sd/contracts";
import { openStore } from "@sd/store";

/** The drill's decisions in a stopped deployment's embedded store, by question. */
export class StoreAudit {
  private constructor(private readonly byQuestion: Map<string, StoredDecision[]>) {}

  /** Reads `dataDir` (its process must have exited: the store serves one process at a time). */
  static async read(dataDir: string, tag: string): Promise<StoreAudit> {
    const store = await openStore({ dataDir });
    try {
      const byQuestion = new Map<string, StoredDecision[]>();
      for (const decision of await store.decisions.list({ question: tag, limit: 1_000_000, offset: 0 })) {
        byQuestion.set(decision.question, [...(byQuestion.get(decision.question) ?? []), decision]);
      }
      return new StoreAudit(byQuestion);
    } finally {
      await store.close();
    }
  }

  /** The part of the audit whose questions contain `tag`. */
  only(tag: string): StoreAudit {
    return new StoreAudit(new Map([...this.byQuestion].filter(([question]) => question.includes(tag))));
  }

  /** How many times the decision of `question` was stored. */
  timesStored(question: string): number {
    return this.byQuestion.get(question)?.length ?? 0;
  }

  storedIds(): Set<string> {
    return new Set([...this.byQuestion.values()].flat().map((d) => d.id));
  }

  /**
   * Decisions stored twice, or with a vote counted twice: more votes than the `expectedVotes` models
   * that answer, or vote counts that do not add up to `total_votes`.
   */
  doubled(expectedVotes: number): number {
    let doubled = 0;
    for (const decisions of this.byQuestion.values()) {
      if (decisions.length > 1) doubled += decisions.length - 1;
      for (const decision of decisions) {
        const counted = Object.values(decision.vote_counts).reduce((sum, n) => sum + n, 0);
        if (decision.total_votes > expectedVotes || counted !== decision.total_votes) doubled++;
      }
    }
    return doubled;
  }

  /** Decisions stored with fewer votes than the `expectedVotes` models that answer (a vote lost on the way). */
  shortOfVotes(expectedVotes: number): number {
    return [...this.byQuestion.values()].flat().filter((d) => d.total_votes < expectedVotes).length;
  }

  /** Stored decisions of the drill, first copy of each question. */
  decisions(): StoredDecision[] {
    return [...this.byQuestion.values()].map((copies) => copies[0]!);
  }
}
