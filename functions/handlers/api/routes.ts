/**
 * The API's routes: NodePools, EC2NodeClasses and NodeOverlays as Karpenter documents (list, get,
 * apply, delete), a NodePool's scale, the cluster's limits, the dry run, and the status. A change wakes the controller, so it acts on the
 * new configuration within seconds rather than at the next tick.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { ClusterLimits } from '../../domain/limits/cluster-limits.ts';
import type { EC2NodeClass } from '../../domain/node-class.ts';
import type { NodePool } from '../../domain/node-pool.ts';
import type { NodeOverlay } from '../../domain/overlays/node-overlay.ts';
import { clusterStatus } from '../../domain/pools/cluster-status.ts';
import { type NodePoolStatus, poolStatuses } from '../../domain/pools/pool-status.ts';
import type { NamedDocument, StoredDocument } from '../../domain/state/stored-document.ts';
import { parseEC2NodeClass } from '../../manifests/karpenter/node-class.ts';
import { parseNodeOverlay } from '../../manifests/karpenter/node-overlay.ts';
import { parseNodePool } from '../../manifests/karpenter/node-pool.ts';
import type { DocumentStore, StateStore } from '../../ports/state-store.ts';
import type { Waker } from '../../ports/wake.ts';
import { limitsInForce } from '../../use-cases/limits/limits-in-force.ts';
import type { LiveDryRun } from '../../use-cases/plan/live-dry-run.ts';
import { applyDocument, type UpdateCheck } from '../../use-cases/pools/apply-document.ts';
import {
  deleteNodeClass,
  deleteNodeOverlay,
  deleteNodePool,
} from '../../use-cases/pools/delete-documents.ts';
import { checkNodePoolUpdate } from '../../use-cases/pools/scale-node-pool.ts';
import { ApiError } from './api-error.ts';
import { limitsRoutes } from './limits-routes.ts';
import { json, type Route } from './reply.ts';
import { type DocumentKind, expectedVersion, readDocument } from './request.ts';
import { scaleRoutes } from './scale-routes.ts';

export interface ApiDependencies {
  readonly state: Pick<
    StateStore,
    | 'nodePools'
    | 'nodeClasses'
    | 'nodeOverlays'
    | 'nodeClaims'
    | 'pastDisruptions'
    | 'clusterLimits'
  >;
  readonly waker: Waker;
  readonly now: () => Date;
  /** What a pass would launch now, from the live cluster. */
  readonly dryRun: () => Promise<LiveDryRun>;
  /** The cluster's limits until some are stored (`cdk.json` context `limits`). */
  readonly startingLimits?: ClusterLimits;
}

const NODE_POOL: DocumentKind<NodePool> = {
  apiVersion: 'karpenter.sh/v1',
  kind: 'NodePool',
  parse: parseNodePool,
};
const NODE_CLASS: DocumentKind<EC2NodeClass> = {
  apiVersion: 'karpenter.k8s.aws/v1',
  kind: 'EC2NodeClass',
  parse: parseEC2NodeClass,
};
const NODE_OVERLAY: DocumentKind<NodeOverlay> = {
  apiVersion: 'karpenter.sh/v1alpha1',
  kind: 'NodeOverlay',
  parse: parseNodeOverlay,
};

/** The stored document as Kubernetes shows it: its resourceVersion in its metadata. */
function shown<T extends NamedDocument>(stored: StoredDocument<T>, status?: unknown) {
  const { document } = stored;
  const metadata = { ...document.metadata, resourceVersion: String(stored.resourceVersion) };
  return { ...document, metadata, ...(status === undefined ? {} : { status }) };
}

function nameOf(event: APIGatewayProxyEventV2): string {
  const name = event.pathParameters?.name ?? '';
  if (!/^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/.test(name)) {
    throw new ApiError(400, `"${name}" is not a valid name: lowercase letters, digits, - and .`);
  }
  return name;
}

async function statusesBy(deps: ApiDependencies): Promise<Map<string, NodePoolStatus>> {
  const [nodePools, classes, claims, ended] = await Promise.all([
    deps.state.nodePools.list(),
    deps.state.nodeClasses.list(),
    deps.state.nodeClaims.list(),
    deps.state.pastDisruptions.listRecent(deps.now()),
  ]);
  const statuses = poolStatuses({
    nodePools,
    nodeClasses: classes.map((c) => c.document),
    claims,
    ended,
  });
  return new Map(statuses.map((s) => [s.name, s]));
}

interface Collection<T extends NamedDocument> {
  readonly path: string;
  readonly kind: DocumentKind<T>;
  readonly store: DocumentStore<T>;
  /** The status shown with each document (NodePools have one). */
  readonly statuses: () => Promise<ReadonlyMap<string, unknown>>;
  /** Deletes the document; resolves with what else its deletion set going. */
  readonly remove: (name: string, expected?: number) => Promise<Record<string, unknown>>;
  /** The kind's transition rules, checked on every replacement. */
  readonly checkUpdate?: UpdateCheck<T>;
}

function listRoute<T extends NamedDocument>(c: Collection<T>): Route {
  return {
    method: 'GET',
    path: c.path,
    handler: async () => {
      const [stored, statuses] = await Promise.all([c.store.list(), c.statuses()]);
      const items = stored
        .map((s) => shown(s, statuses.get(s.document.metadata.name)))
        .sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
      return json(200, { apiVersion: 'v1', kind: 'List', items });
    },
  };
}

function getRoute<T extends NamedDocument>(c: Collection<T>): Route {
  return {
    method: 'GET',
    path: `${c.path}/{name}`,
    handler: async (event) => {
      const name = nameOf(event);
      const stored = await c.store.get(name);
      if (stored === undefined) throw new ApiError(404, `${c.kind.kind} ${name} does not exist`);
      const status = (await c.statuses()).get(name);
      return json(200, shown(stored, status), { etag: `"${stored.resourceVersion}"` });
    },
  };
}

/** The document without the resourceVersion it may carry: the store keeps versions itself. */
function withoutVersion<T extends NamedDocument>(document: T): T {
  const { resourceVersion: _kept, ...metadata } = document.metadata as T['metadata'] & {
    resourceVersion?: string;
  };
  return { ...document, metadata };
}

function putRoute<T extends NamedDocument>(c: Collection<T>, waker: Waker): Route {
  return {
    method: 'PUT',
    path: `${c.path}/{name}`,
    handler: async (event) => {
      const name = nameOf(event);
      const { document, resourceVersion } = await readDocument(event, c.kind, name);
      const expected = expectedVersion(event, resourceVersion);
      const next = withoutVersion(document);
      const outcome = await applyDocument(c.store, next, expected, c.checkUpdate);
      if (outcome.result !== 'unchanged') {
        await waker.wake({ source: 'api', reason: `${c.kind.kind} ${name} ${outcome.result}` });
      }
      const status = (await c.statuses()).get(name);
      return json(outcome.result === 'created' ? 201 : 200, {
        result: outcome.result,
        ...shown(outcome.stored, status),
      });
    },
  };
}

function deleteRoute<T extends NamedDocument>(c: Collection<T>, waker: Waker): Route {
  return {
    method: 'DELETE',
    path: `${c.path}/{name}`,
    handler: async (event) => {
      const name = nameOf(event);
      const effects = await c.remove(name, expectedVersion(event));
      await waker.wake({ source: 'api', reason: `${c.kind.kind} ${name} deleted` });
      return json(200, { result: 'deleted', kind: c.kind.kind, name, ...effects });
    },
  };
}

function collectionRoutes<T extends NamedDocument>(c: Collection<T>, waker: Waker): Route[] {
  return [listRoute(c), getRoute(c), putRoute(c, waker), deleteRoute(c, waker)];
}

/** The Karpenter documents; they differ in the status shown and in what deleting sets going. */
function documentRoutes(deps: ApiDependencies): Route[] {
  const nodePools: Collection<NodePool> = {
    path: '/v1/nodepools',
    kind: NODE_POOL,
    store: deps.state.nodePools,
    statuses: () => statusesBy(deps),
    checkUpdate: checkNodePoolUpdate,
    remove: async (name, expected) => ({
      nodeClaimsMarkedForDeletion: await deleteNodePool(deps.state, name, deps.now(), expected),
    }),
  };
  const nodeClasses: Collection<EC2NodeClass> = {
    path: '/v1/nodeclasses',
    kind: NODE_CLASS,
    store: deps.state.nodeClasses,
    statuses: async () => new Map(),
    remove: async (name, expected) => {
      await deleteNodeClass(deps.state, name, expected);
      return {};
    },
  };
  const nodeOverlays: Collection<NodeOverlay> = {
    path: '/v1/nodeoverlays',
    kind: NODE_OVERLAY,
    store: deps.state.nodeOverlays,
    // Whether an overlay conflicts depends on the instance types it meets; the dry run says.
    statuses: async () => new Map(),
    remove: async (name, expected) => {
      await deleteNodeOverlay(deps.state, name, expected);
      return {};
    },
  };
  return [
    ...collectionRoutes(nodePools, deps.waker),
    ...collectionRoutes(nodeClasses, deps.waker),
    ...collectionRoutes(nodeOverlays, deps.waker),
  ];
}

export function apiRoutes(deps: ApiDependencies): Route[] {
  return [
    ...documentRoutes(deps),
    ...scaleRoutes({
      ...deps,
      nodes: async (name) => (await statusesBy(deps)).get(name)?.nodes ?? 0,
    }),
    ...limitsRoutes(deps),
    {
      method: 'GET',
      path: '/v1/status',
      handler: async () => {
        const [pools, claims, inForce] = await Promise.all([
          statusesBy(deps),
          deps.state.nodeClaims.list(),
          limitsInForce(deps.state.clusterLimits, deps.startingLimits),
        ]);
        const cluster = clusterStatus(claims, inForce.limits);
        return json(200, { nodePools: [...pools.values()], cluster });
      },
    },
    {
      method: 'POST',
      path: '/v1/plan',
      handler: async () => {
        const { report, warnings } = await deps.dryRun();
        return json(200, { ...report, warnings });
      },
    },
  ];
}
