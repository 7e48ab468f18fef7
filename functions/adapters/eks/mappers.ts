/**
 * Pure conversions from the EKS API's shapes to the adapter's (docs/design.md §2.3). A cluster
 * being created has neither endpoint nor CA yet (EKS API reference, DescribeCluster): that is
 * reported with its status rather than passed on as an empty server.
 */
import type { Cluster } from '@aws-sdk/client-eks';
import { InvalidConfigError } from '../../ports/errors.ts';
import type { ClusterEndpoint } from './cluster-access.ts';

function missingPart(server: string, certificateAuthorityData: string): string | undefined {
  if (server === '') return 'endpoint';
  return certificateAuthorityData === '' ? 'certificate authority' : undefined;
}

export function fromCluster(cluster: Cluster | undefined, clusterName: string): ClusterEndpoint {
  const server = cluster?.endpoint ?? '';
  const certificateAuthorityData = cluster?.certificateAuthority?.data ?? '';
  const missing = missingPart(server, certificateAuthorityData);
  if (missing !== undefined) {
    const status = cluster?.status ?? 'unknown';
    throw new InvalidConfigError(
      `describing eks cluster ${clusterName}: it has no ${missing} yet (status ${status})`,
    );
  }
  return { server, certificateAuthorityData };
}
