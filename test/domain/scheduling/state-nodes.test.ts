import { describe, expect, it } from 'vitest';
import { Label } from '../../../functions/domain/labels.ts';
import type { Node } from '../../../functions/domain/node.ts';
import type { NodeClaim } from '../../../functions/domain/node-claim.ts';
import type { Pod } from '../../../functions/domain/pod.ts';
import { GiB } from '../../../functions/domain/resources.ts';
import {
  type StateNodeSources,
  stateNodes,
} from '../../../functions/domain/scheduling/state-nodes.ts';
import type { Taint } from '../../../functions/domain/taints.ts';
import { aNode, aNodePool, aPod } from '../../support/builders.ts';
import {
  aDaemonSet,
  aManagedNode,
  anInFlightNodeClaim,
  placementOf,
  planFor,
} from '../../support/scheduling-builders.ts';

const STARTUP: Taint = { key: 'example.com/agent-not-ready', effect: 'NoSchedule' };
const NOT_READY: Taint = { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' };
const UNINITIALIZED: Taint = {
  key: 'node.cloudprovider.kubernetes.io/uninitialized',
  value: 'true',
  effect: 'NoSchedule',
};
const DEDICATED: Taint = { key: 'dedicated', value: 'db', effect: 'NoSchedule' };
const CORDONED: Taint = { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' };

function sources(parts: Partial<StateNodeSources>): StateNodeSources {
  return {
    nodes: [],
    nodeClaims: [],
    nodePools: [aNodePool()],
    pods: [],
    daemonSets: [],
    ...parts,
  };
}

function only(parts: Partial<StateNodeSources>) {
  const [node, ...rest] = stateNodes(sources(parts));
  expect(rest).toEqual([]);
  return node;
}

describe('managed and unmanaged nodes', () => {
  it('treats a node without a NodePool label as unmanaged and initialized, taints and all', () => {
    // Prepare
    const node = aNode({ name: 'byo', taints: [NOT_READY, STARTUP] });

    // Act
    const state = only({ nodes: [node] });

    // Assess
    expect(state?.nodePool).toBeUndefined();
    expect(state?.initialized).toBe(true);
    expect(state?.input.taints).toEqual([NOT_READY, STARTUP]);
    expect(state?.capacity).toEqual(node.capacity);
  });

  it('treats a NodePool-labelled node without a NodeClaim as initialized', () => {
    // Prepare
    const { node } = aManagedNode({
      name: 'orphan',
      initialized: false,
      taints: [STARTUP, NOT_READY],
    });

    // Act
    const state = only({ nodes: [node] });

    // Assess
    expect(state?.nodePool).toBe('default');
    expect(state?.initialized).toBe(true);
    expect(state?.input.taints).toEqual([STARTUP, NOT_READY]);
  });

  it('gives the node its hostname label and its labels as requirements', () => {
    // Prepare
    const { node, nodeClaim } = aManagedNode({ name: 'node-a', zone: 'test-zone-b' });

    // Act
    const state = only({ nodes: [node], nodeClaims: [nodeClaim] });

    // Assess
    const values = (key: string) => [...(state?.input.requirements.get(key)?.values ?? [])];
    expect(values(Label.hostname)).toEqual(['node-a']);
    expect(values(Label.zone)).toEqual(['test-zone-b']);
    expect(values(Label.nodePool)).toEqual(['default']);
  });
});

describe('taints of nodes that are still starting', () => {
  interface Starting {
    readonly labelled: boolean;
    readonly claimStartupTaints: boolean;
    readonly conditionInitialized: boolean;
  }
  const ALL_TAINTS = [STARTUP, NOT_READY, UNINITIALIZED, DEDICATED];

  it.each<[string, Starting, boolean, Taint[]]>([
    [
      'ignores startup and ephemeral taints before initialization',
      { labelled: false, claimStartupTaints: true, conditionInitialized: false },
      false,
      [DEDICATED],
    ],
    [
      'keeps them once the node is labelled initialized',
      { labelled: true, claimStartupTaints: true, conditionInitialized: false },
      true,
      ALL_TAINTS,
    ],
    [
      'keeps them once the NodeClaim reports Initialized',
      { labelled: false, claimStartupTaints: true, conditionInitialized: true },
      true,
      ALL_TAINTS,
    ],
    [
      'takes the startup taints from the pool when the NodeClaim has none',
      { labelled: false, claimStartupTaints: false, conditionInitialized: false },
      false,
      [DEDICATED],
    ],
  ])('%s', (_label, starting, initialized, expected) => {
    // Prepare
    const managed = aManagedNode({
      name: 'starting',
      initialized: starting.labelled,
      taints: ALL_TAINTS,
      ...(starting.claimStartupTaints ? { startupTaints: [STARTUP] } : {}),
    });
    const conditions = starting.conditionInitialized
      ? [{ type: 'Initialized', status: 'True' as const }]
      : [];
    const nodeClaim: NodeClaim = {
      ...managed.nodeClaim,
      status: { ...managed.nodeClaim.status, conditions },
    };
    const pool = aNodePool({ startupTaints: [STARTUP] });

    // Act
    const state = only({ nodes: [managed.node], nodeClaims: [nodeClaim], nodePools: [pool] });

    // Assess
    expect(state?.initialized).toBe(initialized);
    expect(state?.input.taints).toEqual(expected);
  });

  it('keeps a taint neither the NodeClaim nor its pool declares as a startup taint', () => {
    // Prepare
    const managed = aManagedNode({ name: 'starting', initialized: false, taints: [STARTUP] });

    // Act
    const state = only({ nodes: [managed.node], nodeClaims: [managed.nodeClaim] });

    // Assess
    expect(state?.input.taints).toEqual([STARTUP]);
  });

  it('finds the NodeClaim of a node by provider ID when the claim has no node name yet', () => {
    // Prepare
    const managed = aManagedNode({ name: 'starting', initialized: false, taints: [NOT_READY] });
    const nodeClaim: NodeClaim = {
      ...managed.nodeClaim,
      status: { providerID: managed.node.providerID ?? '' },
    };

    // Act
    const state = only({ nodes: [managed.node], nodeClaims: [nodeClaim] });

    // Assess
    expect(state?.initialized).toBe(false);
    expect(state?.input.taints).toEqual([]);
  });
});

describe('cordoned and deleting nodes', () => {
  it.each([
    ['adds the unschedulable taint to a cordoned node', [], [CORDONED]],
    ['does not add it twice', [CORDONED], [CORDONED]],
  ])('%s', (_label, taints, expected) => {
    // Prepare
    const node: Node = { ...aNode({ name: 'cordoned', taints }), unschedulable: true };

    // Act
    const state = only({ nodes: [node] });

    // Assess
    expect(state?.input.taints).toEqual(expected);
  });

  it('leaves out a node being deleted, and does not count its NodeClaim as in flight', () => {
    // Prepare
    const managed = aManagedNode({ name: 'leaving' });
    const node: Node = { ...managed.node, deleting: true };
    const nodeClaim: NodeClaim = {
      ...managed.nodeClaim,
      status: { ...managed.nodeClaim.status, allocatable: { cpu: '4', memory: '16Gi' } },
    };

    // Act
    const states = stateNodes(sources({ nodes: [node], nodeClaims: [nodeClaim] }));

    // Assess
    expect(states).toEqual([]);
  });

  it('moves the pods of a deleting node to pending and offers the node no room', () => {
    // Prepare
    const leaving: Node = { ...aNode({ name: 'leaving', cpu: '16' }), deleting: true };
    const moving = aPod({ name: 'moving', cpu: '1', nodeName: 'leaving' });
    const pending = aPod({ name: 'pending', cpu: '1' });

    // Act
    const plan = planFor({ pods: [moving, pending], nodes: [leaving] });

    // Assess
    expect(plan.pendingPods).toBe(2);
    expect(plan.existingNodes).toEqual([]);
    expect(placementOf(plan, moving)).toMatchObject({ kind: 'claim' });
    expect(placementOf(plan, pending)).toMatchObject({ kind: 'claim' });
  });
});

describe('NodeClaims still launching', () => {
  it('stands in for the node to come with its predicted allocatable and labels', () => {
    // Prepare
    const claim = anInFlightNodeClaim({ name: 'default-abc', zone: 'test-zone-c', cpu: '8' });
    const withTaints: NodeClaim = {
      ...claim,
      spec: {
        ...claim.spec,
        taints: [DEDICATED],
        requirements: [{ key: Label.instanceType, operator: 'In', values: ['m.2xlarge'] }],
      },
    };

    // Act
    const state = only({ nodeClaims: [withTaints] });

    // Assess
    expect(state?.nodePool).toBe('default');
    expect(state?.initialized).toBe(false);
    expect(state?.input.name).toBe('default-abc');
    expect(state?.input.taints).toEqual([DEDICATED]);
    expect(state?.input.allocatable).toMatchObject({ cpu: 8_000, memory: 16 * GiB, pods: 110 });
    expect(state?.capacity).toMatchObject({ cpu: 8_000 });
    const values = (key: string) => [...(state?.input.requirements.get(key)?.values ?? [])];
    expect(values(Label.hostname)).toEqual(['default-abc']);
    expect(values(Label.zone)).toEqual(['test-zone-c']);
    expect(values(Label.instanceType)).toEqual(['m.2xlarge']);
  });

  it.each<[string, (claim: NodeClaim) => NodeClaim]>([
    [
      'being deleted',
      (c) => ({ ...c, metadata: { ...c.metadata, deletionTimestamp: '2026-01-01T00:00:00Z' } }),
    ],
    ['without a predicted allocatable', (c) => ({ ...c, status: {} })],
  ])('leaves out a NodeClaim %s', (_label, change) => {
    // Prepare
    const claim = change(anInFlightNodeClaim({ name: 'default-abc' }));

    // Act
    const states = stateNodes(sources({ nodeClaims: [claim] }));

    // Assess
    expect(states).toEqual([]);
  });

  it('orders initialized nodes first, then by their claim’s name (their own without one)', () => {
    // Prepare
    const b = aManagedNode({ name: 'b-ready' });
    const a = aManagedNode({ name: 'a-starting', initialized: false });
    const byo = aNode({ name: 'c-byo' });
    const inFlight = anInFlightNodeClaim({ name: 'a-launching' });

    // Act
    const states = stateNodes(
      sources({
        nodes: [byo, a.node, b.node],
        nodeClaims: [inFlight, a.nodeClaim, b.nodeClaim],
      }),
    );

    // Assess
    // b-ready's claim is default-b-ready, a-starting's default-a-starting.
    expect(states.map((s) => [s.input.name, s.initialized])).toEqual([
      ['c-byo', true],
      ['b-ready', true],
      ['a-launching', false],
      ['a-starting', false],
    ]);
  });

  it('keeps a claim in its place when its node joins under another name', () => {
    // Prepare: two claims in flight, then the later one's node joins first.
    const first = anInFlightNodeClaim({ name: 'default-00001' });
    const second = aManagedNode({ name: 'a-joined-node', initialized: false });
    const secondClaim = {
      ...second.nodeClaim,
      metadata: { ...second.nodeClaim.metadata, name: 'default-00002' },
    };

    // Act
    const states = stateNodes(sources({ nodes: [second.node], nodeClaims: [first, secondClaim] }));

    // Assess
    expect(states.map((s) => s.input.name)).toEqual(['default-00001', 'a-joined-node']);
  });
});

describe('what is already on a node', () => {
  it('counts the pods bound to a node, but not finished ones nor those of other nodes', () => {
    // Prepare
    const node = aNode({ name: 'node-a' });
    const pods: Pod[] = [
      aPod({ name: 'running', cpu: '1', memory: '1Gi', nodeName: 'node-a' }),
      { ...aPod({ name: 'done', cpu: '3', nodeName: 'node-a' }), phase: 'Succeeded' },
      aPod({ name: 'elsewhere', cpu: '3', nodeName: 'node-b' }),
      aPod({ name: 'pending', cpu: '3' }),
    ];

    // Act
    const state = only({ nodes: [node], pods });

    // Assess
    expect(state?.input.boundPods.map((p) => p.name)).toEqual(['running']);
    expect(state?.input.boundRequests).toEqual({ cpu: 1_000, memory: GiB, pods: 1 });
  });

  const logging = aDaemonSet({ name: 'logging', cpu: '250m', memory: '128Mi' });

  it.each<[string, Node, Pod[], number]>([
    [
      'keeps room for a daemon that belongs on the node but has no pod there',
      aNode({ name: 'n' }),
      [],
      250,
    ],
    [
      'keeps none for a daemon already running there',
      aNode({ name: 'n' }),
      [
        aPod({
          name: 'logging-x',
          namespace: 'kube-system',
          nodeName: 'n',
          ownerKind: 'DaemonSet',
          labels: { app: 'logging' },
        }),
      ],
      0,
    ],
    [
      'keeps none on a node whose taints the daemon does not tolerate',
      aNode({ name: 'n', taints: [DEDICATED] }),
      [],
      0,
    ],
    [
      'keeps room on a node with only PreferNoSchedule taints',
      aNode({ name: 'n', taints: [{ key: 'soft', effect: 'PreferNoSchedule' }] }),
      [],
      250,
    ],
  ])('%s', (_label, node, pods, cpu) => {
    // Act
    const state = only({ nodes: [node], pods, daemonSets: [logging] });

    // Assess
    expect(state?.input.pendingDaemons.cpu ?? 0).toBe(cpu);
  });

  it.each<[string, Record<string, string>, number]>([
    ['a node its nodeSelector matches', { disk: 'ssd' }, 100],
    ['no node its nodeSelector rejects', { disk: 'hdd' }, 0],
  ])('keeps room for a selective daemon on %s', (_label, labels, cpu) => {
    // Prepare
    const ssdOnly = aDaemonSet({
      name: 'ssd-agent',
      cpu: '100m',
      spec: { nodeSelector: { disk: 'ssd' } },
    });
    const viaAffinity = aDaemonSet({
      name: 'ssd-agent-2',
      cpu: '10m',
      spec: {
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [
                { matchExpressions: [{ key: 'disk', operator: 'In', values: ['nvme'] }] },
              ],
            },
          },
        },
      },
    });

    // Act
    const state = only({
      nodes: [aNode({ name: 'n', labels })],
      daemonSets: [ssdOnly, viaAffinity],
    });

    // Assess
    expect(state?.input.pendingDaemons.cpu ?? 0).toBe(cpu);
  });

  it('keeps room on a launching NodeClaim for every daemon it will run', () => {
    // Act
    const state = only({
      nodeClaims: [anInFlightNodeClaim({ name: 'default-abc' })],
      daemonSets: [logging],
    });

    // Assess
    expect(state?.input.pendingDaemons).toMatchObject({ cpu: 250, memory: 128 * 2 ** 20 });
  });
});
