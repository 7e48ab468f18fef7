/**
 * The cluster's starting limits as the stack hands them to the functions: the `CLUSTER_LIMITS`
 * environment variable, a JSON map such as `{"nodes":"400","nodesmith.io/hourly-cost":"900"}`
 * from the `limits` context of `cdk.json`. Checked as a ClusterLimits document would be; a bad
 * value stops the function at start with the variable and the field named.
 */
import { Variable } from '../../contract/environment.ts';
import { type ClusterLimits, clusterLimits } from '../../domain/limits/cluster-limits.ts';
import { ManifestError } from '../manifest-error.ts';
import { parseClusterLimits } from './cluster-limits.ts';

export function startingLimits(value: string | undefined): ClusterLimits | undefined {
  if (value === undefined || value === '') return undefined;
  try {
    return parseClusterLimits(clusterLimits(JSON.parse(value) as Record<string, string>));
  } catch (err) {
    const reason = err instanceof ManifestError || err instanceof SyntaxError ? err.message : err;
    throw new Error(`${Variable.clusterLimits} is not a limits map: ${String(reason)}`);
  }
}
