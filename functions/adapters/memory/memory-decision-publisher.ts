/**
 * Decisions kept in memory, in the order they were published: what `nodesmith simulate` prints
 * on its timeline and what use-case tests assert on. Copies go in and out, so neither the caller
 * nor a reader can change what was recorded.
 */
import type { Decision, DecisionPublisher } from '../../ports/decisions.ts';

export class MemoryDecisionPublisher implements DecisionPublisher {
  readonly #published: Decision[] = [];

  async publish(decisions: readonly Decision[]): Promise<void> {
    for (const decision of decisions) this.#published.push({ ...decision });
  }

  /** Every decision published so far, oldest first. */
  published(): readonly Decision[] {
    return this.#published.map((decision) => ({ ...decision }));
  }
}
