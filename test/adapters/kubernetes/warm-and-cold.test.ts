/**
 * docs/design.md §3.3.1: a warm snapshot, kept between passes and caught up by watches, decides
 * what a cold one decides. For random sequences of cluster changes — nodes and pods coming,
 * changing, binding, finishing and going, passes reading in between, the server's watch cache
 * aging past what a warm snapshot last saw, catch-ups raced by whole reads or not, on a server that
 * streams lists and on one that does not — the warm read equals a fresh list, object for object
 * and in order, and the planner makes the same plan of either.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { kubernetesClusterFrom } from '../../../functions/adapters/kubernetes/kubernetes-cluster.ts';
import {
  WarmSnapshot,
  type WarmSnapshotOptions,
} from '../../../functions/adapters/kubernetes/warm-snapshot.ts';
import type { ClusterObjects } from '../../../functions/domain/cluster-snapshot.ts';
import { planProvisioning } from '../../../functions/domain/scheduling/plan-provisioning.ts';
import { planningInput } from '../../../functions/domain/scheduling/planning-input.ts';
import {
  type FakeApiServer,
  type JsonObject,
  kubeConfigFor,
  startFakeApiServer,
} from '../../../simulator/api-server/index.ts';
import { aNodePool, instanceTypesFor, someInstanceTypes } from '../../support/builders.ts';
import { NOW, seedNode, seedPod, UNSCHEDULABLE } from './support.ts';

const NODES = ['n0', 'n1', 'n2', 'n3'];
const PODS = ['p0', 'p1', 'p2', 'p3', 'p4', 'p5'];
const NAMESPACES = ['default', 'shop'];

type Change =
  | { readonly kind: 'addNode' | 'deleteNode' | 'cordonNode'; readonly node: number }
  | {
      readonly kind: 'addPod';
      readonly pod: number;
      readonly namespace: number;
      readonly node: number | undefined;
    }
  | { readonly kind: 'bindPod'; readonly pod: number; readonly node: number }
  | { readonly kind: 'finishPod'; readonly pod: number; readonly phase: 'Succeeded' | 'Failed' }
  | { readonly kind: 'deletePod' | 'relabelPod'; readonly pod: number }
  /** Eight label changes in a row: more than a small watch cache keeps once they are stale. */
  | { readonly kind: 'churnPod'; readonly pod: number }
  /** A pass reads the cluster here. */
  | { readonly kind: 'pass' }
  /** Two minutes go by: the watch cache may drop what a warm snapshot last saw. */
  | { readonly kind: 'age' };

const node = fc.nat(NODES.length - 1);
const pod = fc.nat(PODS.length - 1);
const change: fc.Arbitrary<Change> = fc.oneof(
  fc.record({ kind: fc.constantFrom('addNode', 'deleteNode', 'cordonNode'), node }),
  fc.record({
    kind: fc.constant('addPod'),
    pod,
    namespace: fc.nat(NAMESPACES.length - 1),
    node: fc.option(node, { nil: undefined }),
  }),
  fc.record({ kind: fc.constant('bindPod'), pod, node }),
  fc.record({ kind: fc.constant('finishPod'), pod, phase: fc.constantFrom('Succeeded', 'Failed') }),
  fc.record({ kind: fc.constantFrom('deletePod', 'relabelPod', 'churnPod'), pod }),
  fc.constant({ kind: 'pass' } as const),
  fc.constant({ kind: 'age' } as const),
);

/** Where the pod with this name lives now, if anywhere. */
function findPod(server: FakeApiServer, name: string): JsonObject | undefined {
  for (const namespace of NAMESPACES) {
    const found = server.store.get('pods', name, namespace);
    if (found !== undefined) return found;
  }
  return undefined;
}

function withStatus(object: JsonObject, status: JsonObject): JsonObject {
  return { ...object, status: { ...(object.status as JsonObject), ...status } };
}

type NodeChange = Extract<Change, { node: number; kind: `${string}Node` }>;
type PodChange = Exclude<Change, NodeChange | { kind: 'pass' | 'age' }>;

let relabels = 0;

/** Each pod change on the pod as stored; one that does not apply now changes nothing. */
const POD_CHANGES: {
  readonly [K in PodChange['kind']]: (
    server: FakeApiServer,
    existing: JsonObject,
    change: Extract<PodChange, { kind: K }>,
  ) => void;
} = {
  addPod: () => undefined,
  deletePod: (server, existing) => {
    const { name, namespace } = existing.metadata as { name: string; namespace: string };
    server.store.delete('pods', name, namespace);
  },
  bindPod: (server, existing, c) => {
    const spec = { ...(existing.spec as JsonObject), nodeName: NODES[c.node] ?? 'n0' };
    server.store.update('pods', withStatus({ ...existing, spec }, { phase: 'Running' }));
  },
  finishPod: (server, existing, c) => {
    server.store.update('pods', withStatus(existing, { phase: c.phase }));
  },
  relabelPod: relabel,
  churnPod: (server, existing) => {
    let current = existing;
    for (let i = 0; i < 8; i++) current = relabel(server, current);
  },
};

function relabel(server: FakeApiServer, existing: JsonObject): JsonObject {
  const metadata = existing.metadata as JsonObject;
  relabels += 1;
  const labels = { ...(metadata.labels as JsonObject), revision: String(relabels) };
  return server.store.update('pods', { ...existing, metadata: { ...metadata, labels } });
}

function changeNode(server: FakeApiServer, c: NodeChange): void {
  const name = NODES[c.node] ?? 'n0';
  const existing = server.store.get('nodes', name);
  if (existing === undefined) {
    if (c.kind === 'addNode') seedNode(server, name);
    return;
  }
  if (c.kind === 'deleteNode') server.store.delete('nodes', name);
  if (c.kind === 'cordonNode') {
    const spec = existing.spec as JsonObject;
    const unschedulable = !spec.unschedulable;
    server.store.update('nodes', { ...existing, spec: { ...spec, unschedulable } });
  }
}

function changePod(server: FakeApiServer, c: PodChange): void {
  const name = PODS[c.pod] ?? 'p0';
  const existing = findPod(server, name);
  if (existing !== undefined) {
    const change = POD_CHANGES[c.kind] as (s: FakeApiServer, e: JsonObject, c: PodChange) => void;
    change(server, existing, c);
  } else if (c.kind === 'addPod') {
    const nodeName = c.node === undefined ? undefined : NODES[c.node];
    seedPod(server, name, {
      namespace: NAMESPACES[c.namespace] ?? 'default',
      ...(nodeName === undefined ? { conditions: [UNSCHEDULABLE] } : { nodeName }),
    });
  }
}

/** The change as the cluster would make it. */
function apply(server: FakeApiServer, c: NodeChange | PodChange): void {
  if ('pod' in c) changePod(server, c);
  else changeNode(server, c);
}

/**
 * Two minutes on, then a node and a pod changed 24 times each: more changes than a small watch
 * cache keeps once what it held is stale, so the next catch-up may find its revision gone.
 */
function ageAndChurn(server: FakeApiServer, age: () => void): void {
  age();
  changeNode(server, { kind: 'addNode', node: 0 });
  changePod(server, { kind: 'addPod', pod: 0, namespace: 0, node: undefined });
  for (let round = 0; round < 24; round++) {
    changeNode(server, { kind: 'cordonNode', node: 0 });
    changePod(server, { kind: 'relabelPod', pod: 0 });
  }
}

/** Each change in turn: a pass reads the warm snapshot, ageing moves the clock on. */
async function play(
  changes: readonly Change[],
  on: { server: FakeApiServer; pass: () => Promise<unknown>; age: () => void },
): Promise<void> {
  for (const c of changes) {
    if (c.kind === 'pass') await on.pass();
    else if (c.kind === 'age') on.age();
    else apply(on.server, c);
  }
}

/** What the planner makes of the cluster's pending pods with one pool and the small catalog. */
function planOf(objects: ClusterObjects) {
  const nodePools = [aNodePool()];
  const snapshot = { ...objects, nodeClaims: [], nodePools, nodeClasses: [], nodeOverlays: [] };
  const instanceTypes = instanceTypesFor(nodePools, someInstanceTypes());
  return planProvisioning(planningInput(snapshot, { instanceTypes }));
}

let server: FakeApiServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

/**
 * A fresh server holding every node and four pods (more of each than the page size of 1, so a
 * warm snapshot catches up rather than lists), a warm and a cold cluster on it, and a clock to
 * age its watch cache with.
 */
async function cluster(options: WarmSnapshotOptions, watchList: boolean) {
  let nowMs = NOW.getTime();
  await server?.close();
  const started = await startFakeApiServer({
    namespaces: NAMESPACES,
    now: () => new Date(nowMs),
    watchCacheSize: 2,
    watchList,
  });
  server = started;
  NODES.forEach((_, node) => {
    changeNode(started, { kind: 'addNode', node });
  });
  for (const pod of [0, 1, 2, 3]) {
    const node = pod % 2 === 0 ? pod : undefined;
    changePod(started, { kind: 'addPod', pod, namespace: pod % 2, node });
  }
  const kubeConfig = kubeConfigFor(started.url);
  return {
    server: started,
    warm: kubernetesClusterFrom(kubeConfig, { pageSize: 1, warm: new WarmSnapshot(options) }),
    cold: kubernetesClusterFrom(kubeConfig, { pageSize: 1 }),
    age: () => {
      nowMs += 120_000;
    },
  };
}

describe('a warm snapshot', () => {
  it('reads, and plans, what a fresh list does after any changes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(change, { maxLength: 3 }),
        fc.array(change, { minLength: 1, maxLength: 12 }),
        fc.boolean(),
        // A catch-up either raced by a whole read (a streamed list at once, a list once it takes
        // longer than the last list did), or not.
        fc.constantFrom<WarmSnapshotOptions>({}, { raceAfterMs: 60_000 }),
        // A server that streams lists, or one without the WatchList feature gate.
        fc.boolean(),
        async (before, changes, aged, options, watchList) => {
          // Prepare
          const { server, warm, cold, age } = await cluster(options, watchList);
          const pass = () => warm.snapshot();
          await play(before, { server, pass: async () => undefined, age: () => undefined });
          await pass();
          await play(changes, { server, pass, age });
          if (aged) ageAndChurn(server, age);
          // Act
          const warmRead = await warm.snapshot();
          const coldRead = await cold.snapshot();
          // Assess
          expect(warmRead).toEqual(coldRead);
          expect(planOf(warmRead)).toEqual(planOf(coldRead));
        },
      ),
      { numRuns: 12 },
    );
  }, 180_000);
});
