/**
 * Decisions kept in memory, in the order they were published: what `nodesmith simulate` prints
 * on its timeline and what use-case tests assert on. Copies go in and out, so neither the caller
 * nor a reader can change what was recorded.
 */
import type { Decision, DecisionPublisher, LimitReached } from '../../functions/ports/decisions.ts';

export class MemoryDecisionPublisher implements DecisionPublisher {
  readonly #published: Decision[] = [];
  readonly #limits: LimitReached[] = [];

  async publish(decisions: readonly (Decision | LimitReached)[]): Promise<void> {
    for (const decision of decisions) {
      if (decision.kind === 'LimitReached') this.#limits.push({ ...decision });
      else this.#published.push({ ...decision });
    }
  }

  /** Every limit that started refusing, oldest first. */
  limitsReached(): readonly LimitReached[] {
    return this.#limits.map((event) => ({ ...event }));
  }

  /** Every decision published so far, oldest first. */
  published(): readonly Decision[] {
    return this.#published.map((decision) => ({ ...decision }));
  }
}
