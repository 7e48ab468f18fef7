/** Limits refusing capacity, in memory: `simulate` and the use-case tests. */
import type { RefusingLimit } from '../../functions/domain/state/refusing-limit.ts';
import type { RefusingLimitStore } from '../../functions/ports/state-store.ts';

export class MemoryRefusingLimitStore implements RefusingLimitStore {
  readonly #limits = new Map<string, RefusingLimit>();

  async begin(limit: RefusingLimit): Promise<boolean> {
    if (this.#limits.has(limit.key)) return false;
    this.#limits.set(limit.key, { ...limit });
    return true;
  }

  async list(): Promise<readonly RefusingLimit[]> {
    return [...this.#limits.values()]
      .map((limit) => ({ ...limit }))
      .sort((a, b) => a.key.localeCompare(b.key));
  }

  async end(key: string): Promise<void> {
    this.#limits.delete(key);
  }
}
