/**
 * `GET` and `PUT /v1/limits`: the cluster's limits, one ClusterLimits document. A GET shows
 * the stored document with its resourceVersion, or the deployment's starting value until one is
 * stored; a PUT replaces it under the same optimistic concurrency as the pools (`If-Match` or
 * `metadata.resourceVersion`), and wakes the controller. Lowering a limit never terminates a
 * node: it only stops launches until usage falls below it.
 */
import {
  CLUSTER_LIMITS_NAME,
  CLUSTER_LIMITS_TYPE,
  type ClusterLimits,
} from '../../domain/limits/cluster-limits.ts';
import { parseClusterLimits } from '../../manifests/nodesmith/cluster-limits.ts';
import type { StateStore } from '../../ports/state-store.ts';
import type { Waker } from '../../ports/wake.ts';
import { limitsInForce } from '../../use-cases/limits/limits-in-force.ts';
import { applyDocument } from '../../use-cases/pools/apply-document.ts';
import { ApiError } from './api-error.ts';
import { json, type Route } from './reply.ts';
import { type DocumentKind, expectedVersion, readDocument } from './request.ts';

export interface LimitsDependencies {
  readonly state: Pick<StateStore, 'clusterLimits'>;
  readonly waker: Waker;
  /** The deployment's starting value (`cdk.json` context `limits`). */
  readonly startingLimits?: ClusterLimits;
}

const CLUSTER_LIMITS: DocumentKind<ClusterLimits> = {
  ...CLUSTER_LIMITS_TYPE,
  parse: parseClusterLimits,
};

/** The document as Kubernetes shows one: its resourceVersion in its metadata, where it came from. */
function shown(limits: ClusterLimits, resourceVersion: number | undefined) {
  const metadata = {
    name: CLUSTER_LIMITS_NAME,
    ...(resourceVersion === undefined ? {} : { resourceVersion: String(resourceVersion) }),
  };
  const source = resourceVersion === undefined ? 'deployment' : 'api';
  return { ...limits, metadata, status: { source } };
}

export function limitsRoutes(deps: LimitsDependencies): Route[] {
  return [
    {
      method: 'GET',
      path: '/v1/limits',
      handler: async () => {
        const inForce = await limitsInForce(deps.state.clusterLimits, deps.startingLimits);
        if (inForce.limits === undefined) {
          throw new ApiError(404, 'no cluster limits are set; PUT a ClusterLimits to /v1/limits');
        }
        const version = inForce.resourceVersion;
        const etag: Record<string, string> = version === undefined ? {} : { etag: `"${version}"` };
        return json(200, shown(inForce.limits, version), etag);
      },
    },
    {
      method: 'PUT',
      path: '/v1/limits',
      handler: async (event) => {
        const { document, resourceVersion } = await readDocument(
          event,
          CLUSTER_LIMITS,
          CLUSTER_LIMITS_NAME,
        );
        const expected = expectedVersion(event, resourceVersion);
        const limits = { ...document, metadata: { name: CLUSTER_LIMITS_NAME } };
        const outcome = await applyDocument(deps.state.clusterLimits, limits, expected);
        if (outcome.result !== 'unchanged') {
          await deps.waker.wake({ source: 'api', reason: `ClusterLimits ${outcome.result}` });
        }
        const { stored } = outcome;
        return json(outcome.result === 'created' ? 201 : 200, {
          result: outcome.result,
          ...shown(stored.document, stored.resourceVersion),
        });
      },
    },
  ];
}
