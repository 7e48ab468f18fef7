/**
 * `/v1/nodepools/{name}/scale`: a NodePool's scale subresource, as Karpenter's CRD declares it
 * (`specpath=.spec.replicas`, `statuspath=.status.nodes`; core: pkg/apis/v1/nodepool.go). GET
 * answers an `autoscaling/v1` Scale; PUT takes one, PATCH a merge patch of `spec.replicas` (what
 * `kubectl scale` sends). Scaling writes the pool as any update does — under `If-Match` or the
 * Scale's resourceVersion, and refused with 422 and Karpenter's message for a dynamic pool, which
 * has no replicas to scale — and wakes the controller.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { NodePool } from '../../domain/node-pool.ts';
import type { StoredDocument } from '../../domain/state/stored-document.ts';
import { checkBounds, newBoundsBudget } from '../../manifests/document-bounds.ts';
import { readJsonDocuments } from '../../manifests/json-documents.ts';
import { parseScale, parseScalePatch, SCALE_TYPE } from '../../manifests/kubernetes/scale.ts';
import { ManifestError } from '../../manifests/manifest-error.ts';
import type { StateStore } from '../../ports/state-store.ts';
import type { Waker } from '../../ports/wake.ts';
import { scaleNodePool, storedNodePool } from '../../use-cases/pools/scale-node-pool.ts';
import { ApiError } from './api-error.ts';
import { json, type Route } from './reply.ts';
import { bodyText, type DocumentKind, expectedVersion, readDocument } from './request.ts';

export interface ScaleDependencies {
  readonly state: Pick<StateStore, 'nodePools'>;
  readonly waker: Waker;
  /** Each pool's initialized nodes, the Scale's `status.replicas`. */
  readonly nodes: (name: string) => Promise<number>;
}

const SCALE: DocumentKind<ReturnType<typeof parseScale>> = { ...SCALE_TYPE, parse: parseScale };

function scaleOf(stored: StoredDocument<NodePool>, nodes: number) {
  const { name } = stored.document.metadata;
  return {
    ...SCALE_TYPE,
    metadata: { name, resourceVersion: String(stored.resourceVersion) },
    spec: { replicas: stored.document.spec.replicas ?? 0 },
    status: { replicas: nodes },
  };
}

/** The replicas a merge patch asks for, with a 400 naming the field when it cannot be read. */
function patchedReplicas(event: APIGatewayProxyEventV2): number {
  try {
    const [document] = readJsonDocuments(bodyText(event), 'body') ?? [];
    if (document === undefined) throw new ManifestError('body is not a JSON merge patch');
    checkBounds(document.value, newBoundsBudget(false));
    return parseScalePatch(document.value);
  } catch (err) {
    if (err instanceof ManifestError) {
      throw new ApiError(400, err.message, { field: err.location.path });
    }
    throw err;
  }
}

async function scaled(
  deps: ScaleDependencies,
  change: { readonly name: string; readonly replicas: number; readonly expected?: number },
) {
  const outcome = await scaleNodePool(deps.state.nodePools, change);
  if (outcome.result !== 'unchanged') {
    const reason = `NodePool ${change.name} scaled to ${change.replicas}`;
    await deps.waker.wake({ source: 'api', reason });
  }
  const body = {
    result: outcome.result,
    ...scaleOf(outcome.stored, await deps.nodes(change.name)),
  };
  return json(200, body);
}

function nameOf(event: APIGatewayProxyEventV2): string {
  return event.pathParameters?.name ?? '';
}

export function scaleRoutes(deps: ScaleDependencies): Route[] {
  const path = '/v1/nodepools/{name}/scale';
  return [
    {
      method: 'GET',
      path,
      handler: async (event) => {
        const stored = await storedNodePool(deps.state.nodePools, nameOf(event));
        const etag = { etag: `"${stored.resourceVersion}"` };
        return json(200, scaleOf(stored, await deps.nodes(nameOf(event))), etag);
      },
    },
    {
      method: 'PUT',
      path,
      handler: async (event) => {
        const name = nameOf(event);
        const { document, resourceVersion } = await readDocument(event, SCALE, name);
        const expected = expectedVersion(event, resourceVersion);
        const replicas = document.spec.replicas;
        return scaled(deps, { name, replicas, ...(expected === undefined ? {} : { expected }) });
      },
    },
    {
      method: 'PATCH',
      path,
      handler: async (event) => {
        const name = nameOf(event);
        const expected = expectedVersion(event);
        const replicas = patchedReplicas(event);
        return scaled(deps, { name, replicas, ...(expected === undefined ? {} : { expected }) });
      },
    },
  ];
}
