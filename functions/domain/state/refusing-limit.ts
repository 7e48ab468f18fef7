/**
 * A limit refusing capacity, and since when: kept in the state so that the moment a limit starts
 * refusing is told once (a metric and an event), however many passes it goes on refusing in.
 */
export interface RefusingLimit {
  /** `nodepool/<name>/<limit>` or `cluster/<limit>`. */
  readonly key: string;
  /** The pool whose own limit it is; none for the cluster's. */
  readonly nodePool?: string;
  readonly limit: string;
  /** The refusal that started it, for people. */
  readonly message: string;
  readonly since: string;
}

export function refusingLimitKey(limit: { readonly nodePool?: string; readonly limit: string }) {
  return limit.nodePool === undefined
    ? `cluster/${limit.limit}`
    : `nodepool/${limit.nodePool}/${limit.limit}`;
}
