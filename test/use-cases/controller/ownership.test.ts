/**
 * What the controller owns (docs/design.md §8.1): only instances carrying its own tag. A Karpenter
 * node running when Nodesmith starts is neither an orphan nor a disruption candidate, and the
 * instance of a claim written before the tag existed is tagged rather than taken for lost.
 */
import { describe, expect, it } from 'vitest';
import { runControllerPass } from '../../../functions/use-cases/controller/controller-pass.ts';
import { DEFAULT_PASS_SETTINGS } from '../../../functions/use-cases/controller/pass-dependencies.ts';
import { aNewNodeClaim } from '../../contracts/state-fixtures.ts';
import { aPassWorld, T0, useFakeApiServer } from './pass-world.ts';

const SETTINGS = { ...DEFAULT_PASS_SETTINGS, region: 'us-east-1' };
const server = useFakeApiServer();

function aReadyNode(name: string, providerID: string, labels: Record<string, string>) {
  server().store.create('nodes', {
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
    const { deps, cloud, clock } = await aPassWorld(server(), 0);
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
      clock.advance(3 * 60);
      reports.push(await runControllerPass(deps, SETTINGS));
    }
    // Assess
    expect(cloud.instances().filter((i) => i.terminatedAt !== undefined)).toEqual([]);
    expect(reports.flatMap((r) => r.lifecycle)).toEqual([]);
    const node = server().store.get('nodes', 'ip-10-0-1-1.ec2.internal');
    const spec = (node?.spec ?? {}) as { taints?: unknown[]; unschedulable?: boolean };
    expect(spec.taints ?? []).toEqual([]);
    expect(spec.unschedulable).toBeFalsy();
  });
});

describe('claims written before the ownership tag', () => {
  it('tags the instance of such a claim instead of removing the claim and terminating it', async () => {
    // Prepare: a claim whose instance carries Karpenter's keys only, as launches used to write
    const { deps, cloud, clock, state } = await aPassWorld(server(), 0);
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
    clock.advance(10 * 60);
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
    const { deps, cloud, clock, state } = await aPassWorld(server(), 0);
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
        instanceStatuses: cloud.instanceStatuses.bind(cloud),
      },
    };
    // Act
    clock.advance(10 * 60);
    const report = await runControllerPass(refusing, SETTINGS);
    // Assess
    expect(instance.terminatedAt).toBeUndefined();
    expect(await state.nodeClaims.get('general-old02')).toBeDefined();
    expect(report.lifecycle.map((r) => r.kind)).toEqual(['OwnershipTagRefused']);
  });
});
