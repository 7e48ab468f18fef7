/** How many faults of each kind a run injected: counted when a fault takes effect, not when planned. */
export class FaultTally {
  readonly #counts = new Map<string, number>();

  add(kind: string, times = 1): void {
    if (times <= 0) return;
    this.#counts.set(kind, (this.#counts.get(kind) ?? 0) + times);
  }

  /** Counts by kind, sorted by kind. */
  counts(): Readonly<Record<string, number>> {
    return Object.fromEntries([...this.#counts].sort(([a], [b]) => (a < b ? -1 : 1)));
  }

  total(): number {
    return [...this.#counts.values()].reduce((sum, n) => sum + n, 0);
  }
}
