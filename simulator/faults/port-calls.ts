/**
 * Every call through a port, by name (`state.nodeClaims.create`, `cloud.launch`,
 * `cluster.evict`), handed to one function that decides what happens to it: the seam the fault
 * plan uses to fail a call, or to end the invocation making it.
 */

/** Runs `call` (the real port call) or not, and answers in its place. */
export type CallHook = (name: string, call: () => Promise<unknown>) => Promise<unknown>;

/**
 * `target` with every method, nested ones included, going through `hook`. Methods run with the
 * target itself as `this`, so classes with private fields work behind the proxy.
 */
export function throughHook<T extends object>(target: T, path: string, hook: CallHook): T {
  return new Proxy(target, {
    get(object, property) {
      const value: unknown = Reflect.get(object, property, object);
      if (typeof property !== 'string') return value;
      const name = `${path}.${property}`;
      if (typeof value === 'function') {
        return (...args: unknown[]) =>
          hook(name, () => Promise.resolve(value.apply(object, args) as unknown));
      }
      if (value !== null && typeof value === 'object') return throughHook(value, name, hook);
      return value;
    },
  });
}
