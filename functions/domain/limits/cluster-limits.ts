/**
 * The cluster's limits: one document that every NodePool counts against together, beside its
 * own `spec.limits` (a cluster-wide limit is among Karpenter's oldest requests, aws#2474).
 * Set through the API or the CLI; the deployment's configuration gives the starting value.
 */
export const CLUSTER_LIMITS_TYPE = {
  apiVersion: 'nodesmith.io/v1',
  kind: 'ClusterLimits',
} as const;

/** There is one: it is stored under this name. */
export const CLUSTER_LIMITS_NAME = 'cluster';

export interface ClusterLimits {
  readonly apiVersion: typeof CLUSTER_LIMITS_TYPE.apiVersion;
  readonly kind: typeof CLUSTER_LIMITS_TYPE.kind;
  readonly metadata: { readonly name: string; readonly resourceVersion?: string };
  readonly spec: { readonly limits: Readonly<Record<string, string | number>> };
}

export function clusterLimits(limits: Readonly<Record<string, string | number>>): ClusterLimits {
  return { ...CLUSTER_LIMITS_TYPE, metadata: { name: CLUSTER_LIMITS_NAME }, spec: { limits } };
}
