/**
 * Adopting Karpenter's nodes (the `adoptKarpenterNodes` setting) through whole passes, over
 * client-node against the simulated API server: a settled Karpenter node of a pool Nodesmith
 * holds becomes a claim, its instance is tagged and its Node gets Nodesmith's finalizer; an empty
 * one is then consolidated like any node, and Karpenter's finalizer and NodeClaim go with it.
 * Without the setting, Karpenter's NodeClaims are never even read.
 */
import { describe, expect, it } from 'vitest';
import { runControllerPass } from '../../../functions/use-cases/controller/controller-pass.ts';
import { DEFAULT_PASS_SETTINGS } from '../../../functions/use-cases/controller/pass-dependencies.ts';
import type { JsonObject } from '../../../simulator/api-server/json.ts';
import type { ForeignInstance, SimulatedCloud } from '../../../simulator/cloud/simulated-cloud.ts';
import { aPassWorld, T0, useFakeApiServer } from './pass-world.ts';

const ADOPTING = { ...DEFAULT_PASS_SETTINGS, region: 'us-east-1', adoptKarpenterNodes: true };
const CREATED = new Date(T0 - 3 * 86_400_000).toISOString();
const server = useFakeApiServer();

const LABELS = {
  'karpenter.sh/nodepool': 'general',
  team: 'platform',
  'karpenter.k8s.aws/ec2nodeclass': 'default',
  'karpenter.sh/registered': 'true',
  'karpenter.sh/initialized': 'true',
  'karpenter.sh/capacity-type': 'on-demand',
  'node.kubernetes.io/instance-type': 'm7g.large',
  'topology.kubernetes.io/zone': 'us-east-1a',
  'kubernetes.io/arch': 'arm64',
};

/** A node Karpenter launched and still lists: its instance, Node and NodeClaim. */
function karpenterNode(
  cloud: SimulatedCloud,
  name: string,
  instance: Partial<ForeignInstance> = {},
  labels: Record<string, string> = LABELS,
) {
  const started = cloud.startForeign({
    instanceId: `i-0${name.replace(/[^0-9a-f]/g, '').padStart(16, 'a')}`,
    instanceType: 'm7g.large',
    zone: 'us-east-1a',
    capacityType: 'on-demand',
    origin: 'karpenter',
    nodeClaim: name,
    nodePool: labels['karpenter.sh/nodepool'] ?? '',
    nodeClass: 'default',
    ...instance,
  });
  const nodeName = `${name}.ec2.internal`;
  const allocatable = { cpu: '2', memory: '8Gi', pods: '29' };
  server().store.create('nodes', {
    metadata: {
      name: nodeName,
      labels,
      finalizers: ['karpenter.sh/termination'],
      creationTimestamp: CREATED,
    },
    spec: { providerID: started.providerID },
    status: { capacity: allocatable, allocatable, conditions: [{ type: 'Ready', status: 'True' }] },
  });
  server().store.create('nodeclaims', {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodeClaim',
    metadata: {
      name,
      labels,
      finalizers: ['karpenter.sh/termination'],
      creationTimestamp: CREATED,
    },
    spec: {
      nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
      requirements: [
        {
          key: 'karpenter.sh/nodepool',
          operator: 'In',
          values: [labels['karpenter.sh/nodepool'] ?? ''],
        },
      ],
    },
    status: {
      providerID: started.providerID,
      nodeName,
      capacity: allocatable,
      allocatable,
      conditions: [{ type: 'Initialized', status: 'True', lastTransitionTime: CREATED }],
    },
  });
  return { instance: started, nodeName };
}

function finalizersOf(kind: 'nodes' | 'nodeclaims', name: string): unknown {
  return (server().store.get(kind, name)?.metadata as JsonObject | undefined)?.finalizers;
}

describe('adopting Karpenter nodes', () => {
  it('makes a settled Karpenter node a claim of its pool, tags its instance and finalizes its Node, in one pass', async () => {
    // Prepare
    const { deps, cloud, clock, state, decisions } = await aPassWorld(server(), 0);
    const { instance, nodeName } = karpenterNode(cloud, 'general-k1b2c');
    clock.moveTo(60);
    // Act
    const report = await runControllerPass(deps, ADOPTING);
    // Assess
    const claim = await state.nodeClaims.get('general-k1b2c');
    expect(claim).toMatchObject({
      nodePool: 'general',
      phase: 'Initialized',
      instanceId: instance.instanceId,
      nodeName,
      timestamps: { Pending: CREATED },
      adoptedAt: new Date(T0 + 60_000).toISOString(),
    });
    expect(instance.owned).toBe(true);
    expect(finalizersOf('nodes', nodeName)).toEqual([
      'karpenter.sh/termination',
      'nodesmith.io/termination',
    ]);
    expect(report.lifecycle.map((r) => [r.kind, r.claim ?? r.instanceId])).toEqual([
      ['AdoptedFromKarpenter', 'general-k1b2c'],
      ['TaggedOwned', instance.instanceId],
      ['FinalizerAdded', 'general-k1b2c'],
    ]);
    expect(decisions.published().map((d) => d.kind)).toContain('Adopted');
    expect(finalizersOf('nodeclaims', 'general-k1b2c')).toEqual(['karpenter.sh/termination']);
  });

  it("consolidates an empty adopted node through a drain, letting Karpenter's finalizer and NodeClaim go with it", async () => {
    // Prepare
    const { deps, cloud, clock } = await aPassWorld(server(), 0);
    const { instance, nodeName } = karpenterNode(cloud, 'general-k2d3e');
    // Act: passes over a quarter of an hour, past consolidateAfter and validation
    const reports = [];
    for (let minute = 0; minute < 15; minute += 1) {
      clock.moveTo(minute * 60);
      reports.push(await runControllerPass(deps, ADOPTING));
    }
    // Assess
    const steps = reports.flatMap((r) => r.lifecycle).filter((r) => r.claim === 'general-k2d3e');
    expect(steps.map((r) => r.kind)).toEqual(
      expect.arrayContaining(['AdoptedFromKarpenter', 'Disrupting', 'Terminated']),
    );
    expect(steps.find((r) => r.kind === 'Disrupting')?.reason).toMatch(/^Empty/);
    expect(instance.terminatedAt).toBeDefined();
    expect(server().store.get('nodes', nodeName)).toBeUndefined();
    expect(server().store.get('nodeclaims', 'general-k2d3e')).toBeUndefined();
  });

  it("leaves alone a Karpenter node of a pool Nodesmith does not hold, and one whose instance is not the NodeClaim's", async () => {
    // Prepare
    const { deps, cloud, clock, state } = await aPassWorld(server(), 0);
    const gpu = karpenterNode(
      cloud,
      'gpu-k4f5a',
      {},
      { ...LABELS, 'karpenter.sh/nodepool': 'gpu' },
    );
    const mislabelled = karpenterNode(cloud, 'general-k6a7b', { nodeClaim: 'general-other' });
    clock.moveTo(60);
    // Act
    await runControllerPass(deps, ADOPTING);
    // Assess
    expect(await state.nodeClaims.list()).toEqual([]);
    expect([gpu.instance.owned, mislabelled.instance.owned]).toEqual([false, false]);
    expect(finalizersOf('nodes', gpu.nodeName)).toEqual(['karpenter.sh/termination']);
    const skipped = server()
      .store.list('events')
      .filter((e) => e.reason === 'AdoptionSkipped')
      .map((e) => e.message);
    expect(skipped).toEqual([
      "Karpenter's NodeClaim general-k6a7b is left alone: its instance is not tagged karpenter.sh/nodeclaim=general-k6a7b",
      "Karpenter's NodeClaim gpu-k4f5a is left alone: NodePool gpu is not one of Nodesmith's",
    ]);
  });

  it("never reads Karpenter's NodeClaims without the setting", async () => {
    // Prepare
    const { deps, cloud, state } = await aPassWorld(server(), 0);
    const { instance } = karpenterNode(cloud, 'general-k8c9d');
    // Act
    await runControllerPass(deps, { ...ADOPTING, adoptKarpenterNodes: false });
    // Assess
    expect(server().requests.entries.filter((e) => e.path.includes('nodeclaims'))).toEqual([]);
    expect(await state.nodeClaims.list()).toEqual([]);
    expect(instance.owned).toBe(false);
  });
});

describe('adoption that cannot go on', () => {
  it("reports why and still launches for pending pods when Karpenter's NodeClaims may not be listed", async () => {
    // Prepare: the list refused as without deploy/rbac-adoption.yaml, and a pod pending
    const { deps, state } = await aPassWorld(server(), 0);
    server().faults.inject({
      method: 'GET',
      path: '/apis/karpenter.sh/v1/nodeclaims',
      status: 403,
      message:
        'nodeclaims.karpenter.sh is forbidden: User "nodesmith" cannot list resource "nodeclaims"',
    });
    server().store.create('pods', {
      metadata: { name: 'web-1', namespace: 'shop' },
      spec: { containers: [{ name: 'app', image: 'app', resources: { requests: { cpu: '1' } } }] },
      status: {
        phase: 'Pending',
        conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }],
      },
    });
    // Act
    const report = await runControllerPass(deps, ADOPTING);
    // Assess
    expect(report.lifecycle).toEqual([
      {
        at: new Date(T0).toISOString(),
        kind: 'AdoptionFailed',
        reason:
          'adopting Karpenter\'s nodes: listing nodeclaims: nodeclaims list is forbidden: check the ClusterRole in deploy/rbac-adoption.yaml (nodeclaims.karpenter.sh is forbidden: User "nodesmith" cannot list resource "nodeclaims")',
      },
    ]);
    expect(report.launches).toHaveLength(1);
    expect((await state.nodeClaims.list()).map((c) => c.phase)).toEqual(['Launched']);
  });
});
