/**
 * The cluster's limits in force: the document set through the API, or else the starting value
 * the deployment was configured with (`cdk.json` context `limits`). Once set through the API,
 * the stored document wins over the configuration, as a NodePool applied by hand would.
 */
import { CLUSTER_LIMITS_NAME, type ClusterLimits } from '../../domain/limits/cluster-limits.ts';
import type { ClusterLimitsStore } from '../../ports/state-store.ts';

export interface LimitsInForce {
  readonly limits?: ClusterLimits;
  /** The stored document's version; none while the starting value is in force. */
  readonly resourceVersion?: number;
}

export async function limitsInForce(
  store: ClusterLimitsStore,
  starting: ClusterLimits | undefined,
): Promise<LimitsInForce> {
  const stored = await store.get(CLUSTER_LIMITS_NAME);
  if (stored !== undefined)
    return { limits: stored.document, resourceVersion: stored.resourceVersion };
  return starting === undefined ? {} : { limits: starting };
}
