/**
 * A class's spread placement group through controller passes: the pass plans no claim past the
 * seven instances EC2 runs of the group in a zone, counting the claims earlier passes launched,
 * and tells the pods left why they wait (docs/scheduling.md, "placementGroupSelector").
 */
import { describe, expect, it } from 'vitest';
import type { PlacementGroup } from '../../../functions/domain/placement-group.ts';
import { runControllerPass } from '../../../functions/use-cases/controller/controller-pass.ts';
import { DEFAULT_PASS_SETTINGS } from '../../../functions/use-cases/controller/pass-dependencies.ts';
import type { JsonObject } from '../../../simulator/api-server/json.ts';
import { aPassWorld, generalPool, updateDefaultClass, useFakeApiServer } from './pass-world.ts';

const server = useFakeApiServer();
const SETTINGS = { ...DEFAULT_PASS_SETTINGS, region: 'us-east-1' };
const ETCD: PlacementGroup = {
  id: 'pg-0e7cd000000000001',
  name: 'etcd',
  strategy: 'spread',
  spreadLevel: 'rack',
};

/** A member that wants a node of its own, left Pending by kube-scheduler. */
function etcdMember(index: number): JsonObject {
  return {
    metadata: { name: `etcd-${index}`, namespace: 'default', labels: { app: 'etcd' } },
    spec: {
      containers: [
        { name: 'etcd', image: 'etcd', resources: { requests: { cpu: '1', memory: '1Gi' } } },
      ],
      affinity: {
        podAntiAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: [
            {
              labelSelector: { matchLabels: { app: 'etcd' } },
              topologyKey: 'kubernetes.io/hostname',
            },
          ],
        },
      },
    },
    status: {
      phase: 'Pending',
      conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }],
    },
  };
}

describe('a spread placement group in passes', () => {
  it('launches seven instances into a zone, no more, and tells the other pods why', async () => {
    // Prepare: the pool launches only in us-east-1a, into the class's spread group
    const pool = generalPool({
      requirements: [
        { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['on-demand'] },
        { key: 'topology.kubernetes.io/zone', operator: 'In', values: ['us-east-1a'] },
        { key: 'node.kubernetes.io/instance-type', operator: 'In', values: ['m6i.large'] },
      ],
    });
    const world = await aPassWorld(server(), 0, { pool, placementGroups: [ETCD] });
    await updateDefaultClass(world.state, { placementGroupSelector: { name: 'etcd' } });
    for (let i = 0; i < 9; i++) server().store.create('pods', etcdMember(i));

    // Act
    const first = await runControllerPass(world.deps, SETTINGS);
    world.clock.advance(10);
    const second = await runControllerPass(world.deps, SETTINGS);

    // Assess
    expect(first.launches.map((l) => l.claim.offering.zone)).toEqual(Array(7).fill('us-east-1a'));
    expect(second.launches).toEqual([]);
    for (const report of [first, second]) {
      expect(report.unschedulable).toHaveLength(2);
      expect(report.unschedulable[0]?.reasons).toEqual([
        expect.objectContaining({ nodePool: 'general', code: 'PlacementGroup' }),
      ]);
    }
    const claims = await world.state.nodeClaims.list();
    expect(claims.map((c) => c.labels?.['karpenter.k8s.aws/placement-group-id'])).toEqual(
      Array(7).fill(ETCD.id),
    );
  });
});
