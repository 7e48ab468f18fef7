/**
 * Values built once per key and kept, up to a bound past which all are dropped and built again:
 * what is built from a NodePool's or EC2NodeClass's instance types costs far more than the key,
 * and the keys in use (classes, pools, sets of unavailable offerings) are few at a time.
 */
export class KeptValues<T> {
  readonly #values = new Map<string, T>();
  readonly #bound: number;

  constructor(bound: number) {
    this.#bound = bound;
  }

  /** The value kept for `key`, or `build()`'s, kept from now on. */
  get(key: string, build: () => T): T {
    let value = this.#values.get(key);
    if (value === undefined) {
      value = build();
      if (this.#values.size >= this.#bound) this.#values.clear();
      this.#values.set(key, value);
    }
    return value;
  }
}
