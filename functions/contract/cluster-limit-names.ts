/**
 * The limits a deployment's `limits` and a ClusterLimits document may name, besides extended
 * resources (`vendor.com/device`): the stack refuses any other before it builds anything, and the
 * functions refuse it again when they read the document.
 */
export const CLUSTER_LIMIT_NAMES: readonly string[] = [
  'nodes',
  'cpu',
  'memory',
  'nvidia.com/gpu',
  'nodesmith.io/hourly-cost',
];
