/**
 * Reads the store's shared objects (`ObjectStore.listShared`) into domain objects once per
 * stored version. The store replaces an object on every write and never changes one it holds,
 * so the object itself is the version: a reader keyed by it can never answer for a stale one.
 */
import type { JsonObject } from '../api-server/json.ts';

export class SharedObjectReader<T> {
  readonly #convert: (object: JsonObject) => T;
  readonly #read = new WeakMap<JsonObject, T>();

  constructor(convert: (object: JsonObject) => T) {
    this.#convert = convert;
  }

  /** The domain object of a shared stored object; bound, so it can be passed to `map`. */
  readonly read = (object: JsonObject): T => {
    let value = this.#read.get(object);
    if (value === undefined) {
      value = this.#convert(object);
      this.#read.set(object, value);
    }
    return value;
  };
}
