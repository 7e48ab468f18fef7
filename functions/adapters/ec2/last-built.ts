/**
 * A value built from others, kept until one of them is replaced: the adapters' refreshed lists
 * (prices, instance types, offerings) stay the same objects between refreshes, so what is built
 * from them is built once per refresh rather than once per pass.
 */
export class LastBuilt<T> {
  #from: readonly unknown[] | undefined;
  #value: T | undefined;

  /** The value last built from these same inputs (compared by identity), or a new one. */
  get(from: readonly unknown[], build: () => T): T {
    const same =
      this.#from !== undefined &&
      this.#from.length === from.length &&
      this.#from.every((input, i) => input === from[i]);
    if (!same || this.#value === undefined) {
      this.#value = build();
      this.#from = from;
    }
    return this.#value;
  }
}
