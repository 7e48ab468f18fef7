/**
 * What the controller owns (docs/design.md §8.1): only instances carrying its own tag. A Karpenter
 * node running when Nodesmith starts is neither an orphan nor a disruption candidate, and the
 * instance of a claim written before the tag existed is tagged rather than taken for lost.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configurePools } from '../../../bin/cli/simulate/configure-pools.ts';
import { burstScenario } from '../../../bin/cli/simulate/scenarios/burst.ts';
import { kubernetesClusterFrom } from '../../../functions/adapters/kubernetes/kubernetes-cluster.ts';
import { MemoryDecisionPublisher } from '../../../functions/adapters/memory/memory-decision-publisher.ts';
import { makeMemoryStateStore } from '../../../functions/adapters/memory/memory-state-store.ts';
import { kubeConfigFor } from '../../../functions/adapters/simulated/api-server/kube-config.ts';
import {
  type FakeApiServer,
  startFakeApiServer,
} from '../../../functions/adapters/simulated/api-server/server.ts';
import { SimulatedCloud } from '../../../functions/adapters/simulated/cloud/simulated-cloud.ts';
import { runControllerPass } from '../../../functions/use-cases/controller/controller-pass.ts';
import { DEFAULT_PASS_SETTINGS } from '../../../functions/use-cases/controller/pass-dependencies.ts';
import { aNewNodeClaim } from '../../contracts/state-fixtures.ts';

const T0 = Date.UTC(2026, 10, 24, 9, 0, 0);
const SETTINGS = { ...DEFAULT_PASS_SETTINGS, region: 'us-east-1' };
let server: FakeApiServer;

beforeEach(async () => {
  server = await startFakeApiServer({ namespaces: ['default', 'shop', 'batch'] });
});
afterEach(async () => {
  await server.close();
});

function movableClock() {
  let now = T0;
  return {
    now: () => new Date(now),
    advance: (ms: number) => {
      now += ms;
    },
  };
}

async function setUp() {
  const scenario = burstScenario(1, 0);
  const state = makeMemoryStateStore();
  await configurePools(state, scenario.manifests);
  const clock = movableClock();
  const cloud = new SimulatedCloud({ clock, region: 'us-east-1', zones: scenario.zones, seed: 1 });
  let n = 0;
  const deps = {
    state,
    cluster: kubernetesClusterFrom(kubeConfigFor(server.url), { now: clock.now }),
    cloud,
    decisions: new MemoryDecisionPublisher(),
    waker: { wake: async () => {} },
    clock,
    newClaimName: (pool: string) => `${pool}-${String(++n).padStart(5, '0')}`,
    holder: 'test-pass',
  };
  return { deps, cloud, clock, state };
}

function aReadyNode(name: string, providerID: string, labels: Record<string, string>) {
  server.store.create('nodes', {
    metadata: { name, labels, creationTimestamp: new Date(T0).toISOString() },
    spec: { providerID },
    status: {
      capacity: { cpu: '2', memory: '8Gi', pods: '110' },
      allocatable: { cpu: '2', memory: '8Gi', pods: '110' },
      conditions: [{ type: 'Ready', status: 'True' }],
    },
  });
}

describe('instances Nodesmith did not launch', () => {
  it('leaves a running Karpenter node alone: not an orphan, not consolidated though empty, not even cordoned', async () => {
    // Prepare: an empty Karpenter node in a pool of the same name as Nodesmith's
    const { deps, cloud, clock } = await setUp();
    const karpenters = cloud.startForeign({
      instanceId: 'i-0aaaaaaaaaaaaaaa1',
      instanceType: 'm7g.large',
      zone: 'us-east-1a',
      capacityType: 'on-demand',
      origin: 'karpenter',
      nodeClaim: 'general-k8s01',
      nodePool: 'general',
      nodeClass: 'default',
    });
    const group = cloud.startForeign({
      instanceId: 'i-0aaaaaaaaaaaaaaa2',
      instanceType: 'm7g.large',
      zone: 'us-east-1b',
      capacityType: 'on-demand',
      origin: 'node-group',
    });
    aReadyNode('ip-10-0-1-1.ec2.internal', karpenters.providerID, {
      'karpenter.sh/nodepool': 'general',
      'karpenter.sh/initialized': 'true',
      'node.kubernetes.io/instance-type': 'm7g.large',
    });
    aReadyNode('ip-10-0-1-2.ec2.internal', group.providerID, {
      'eks.amazonaws.com/nodegroup': 'system',
    });
    // Act: an hour of passes, long past the orphan grace and consolidateAfter
    const reports = [];
    for (let pass = 0; pass < 20; pass += 1) {
      clock.advance(3 * 60_000);
      reports.push(await runControllerPass(deps, SETTINGS));
    }
    // Assess
    expect(cloud.instances().filter((i) => i.terminatedAt !== undefined)).toEqual([]);
    expect(reports.flatMap((r) => r.lifecycle)).toEqual([]);
    const node = server.store.get('nodes', 'ip-10-0-1-1.ec2.internal');
    const spec = (node?.spec ?? {}) as { taints?: unknown[]; unschedulable?: boolean };
    expect(spec.taints ?? []).toEqual([]);
    expect(spec.unschedulable).toBeFalsy();
  });
});

describe('claims written before the ownership tag', () => {
  it('tags the instance of such a claim instead of removing the claim and terminating it', async () => {
    // Prepare: a claim whose instance carries Karpenter's keys only, as launches used to write
    const { deps, cloud, clock, state } = await setUp();
    const instance = cloud.startForeign({
      instanceId: 'i-0ccccccccccccccc1',
      instanceType: 'm7g.large',
      zone: 'us-east-1a',
      capacityType: 'on-demand',
      origin: 'karpenter',
      nodeClaim: 'general-old01',
      nodePool: 'general',
    });
    const at = new Date(T0).toISOString();
    await state.nodeClaims.create({
      ...aNewNodeClaim({ name: 'general-old01', nodePool: 'general' }),
      phase: 'Launched',
      instanceId: instance.instanceId,
      providerID: instance.providerID,
      timestamps: { Pending: at, Launched: at },
    });
    // Act
    clock.advance(10 * 60_000);
    const report = await runControllerPass(deps, SETTINGS);
    // Assess
    expect(instance.owned).toBe(true);
    expect(instance.terminatedAt).toBeUndefined();
    expect(await state.nodeClaims.get('general-old01')).toBeDefined();
    expect(report.lifecycle.map((r) => [r.kind, r.instanceId])).toEqual([
      ['TaggedOwned', instance.instanceId],
    ]);
  });

  it('keeps the claim and its instance when the tag cannot be written', async () => {
    // Prepare
    const { deps, cloud, clock, state } = await setUp();
    const instance = cloud.startForeign({
      instanceId: 'i-0ccccccccccccccc2',
      instanceType: 'm7g.large',
      zone: 'us-east-1a',
      capacityType: 'on-demand',
      origin: 'karpenter',
      nodeClaim: 'general-old02',
      nodePool: 'general',
    });
    const at = new Date(T0).toISOString();
    await state.nodeClaims.create({
      ...aNewNodeClaim({ name: 'general-old02', nodePool: 'general' }),
      phase: 'Launched',
      instanceId: instance.instanceId,
      providerID: instance.providerID,
      timestamps: { Pending: at, Launched: at },
    });
    const refused = new Error('UnauthorizedOperation: not authorized to perform ec2:CreateTags');
    const refusing = {
      ...deps,
      cloud: {
        resolveNodeClass: cloud.resolveNodeClass.bind(cloud),
        instanceTypes: cloud.instanceTypes.bind(cloud),
        prices: cloud.prices.bind(cloud),
        launch: cloud.launch.bind(cloud),
        terminate: cloud.terminate.bind(cloud),
        listManaged: cloud.listManaged.bind(cloud),
        describe: cloud.describe.bind(cloud),
        claimOwnership: () => Promise.reject(refused),
      },
    };
    // Act
    clock.advance(10 * 60_000);
    const report = await runControllerPass(refusing, SETTINGS);
    // Assess
    expect(instance.terminatedAt).toBeUndefined();
    expect(await state.nodeClaims.get('general-old02')).toBeDefined();
    expect(report.lifecycle.map((r) => r.kind)).toEqual(['OwnershipTagRefused']);
  });
});
