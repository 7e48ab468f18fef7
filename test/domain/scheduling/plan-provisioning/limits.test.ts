import { describe, expect, it } from 'vitest';
import { Label } from '../../../../functions/domain/labels.ts';
import { clusterLimits } from '../../../../functions/domain/limits/cluster-limits.ts';
import { HOURLY_COST } from '../../../../functions/domain/limits/hourly-cost.ts';
import type { ProvisioningPlan } from '../../../../functions/domain/scheduling/provisioning-plan.ts';
import {
  aGpuInstanceType,
  aNode,
  aNodePool,
  anInstanceType,
  aPod,
} from '../../../support/builders.ts';
import { anAffinityTerm, planFor, podAntiAffinity } from '../../../support/scheduling-builders.ts';

/** Pods that each need their own node. */
function oneEach(count: number, cpu = '1') {
  return Array.from({ length: count }, (_, i) =>
    aPod({
      name: `solo-${i}`,
      cpu,
      labels: { app: 'solo' },
      affinity: podAntiAffinity(anAffinityTerm(Label.hostname, { app: 'solo' })),
    }),
  );
}

const catalog = [
  anInstanceType({ name: 'm.large', cpu: 2, memoryGiB: 8, price: 0.1 }),
  anInstanceType({ name: 'm.xlarge', cpu: 4, memoryGiB: 16, price: 0.2 }),
  anInstanceType({ name: 'm.4xlarge', cpu: 16, memoryGiB: 64, price: 0.8 }),
];

const onDemand = [{ key: Label.capacityType, operator: 'In' as const, values: ['on-demand'] }];

function hourlyCost(plan: ProvisioningPlan): number {
  return plan.nodeClaims.reduce((sum, c) => sum + c.offering.pricePerHour, 0);
}

function types(plan: ProvisioningPlan): string[] {
  return plan.nodeClaims.map((c) => c.instanceType.name);
}

describe('NodePool limits', () => {
  it('counts each claim as the option it launches, not its largest', () => {
    // Prepare
    const pool = aNodePool({ limits: { cpu: '20', nodes: '10' } });

    // Act
    const plan = planFor({ pods: oneEach(3), nodePools: [pool], catalog });

    // Assess: three m.large (6 cpu) fit in 20, though each could have grown to 16 cpu
    expect(types(plan)).toEqual(['m.large', 'm.large', 'm.large']);
    expect(plan.unschedulable).toEqual([]);
  });

  it('leaves out instance types bigger than the remaining limit', () => {
    // Prepare
    const pool = aNodePool({ limits: { cpu: '4' } });
    const pod = aPod({ name: 'web', cpu: '1' });

    // Act
    const plan = planFor({ pods: [pod], nodePools: [pool], catalog });

    // Assess
    expect(plan.nodeClaims[0]?.instanceTypeOptions.map((it) => it.name)).toEqual([
      'm.large',
      'm.xlarge',
    ]);
  });

  it('stops a claim from growing past a limit and opens another that fits', () => {
    // Prepare: 1.5 cpu pods; two share an m.xlarge (4 cpu) only if 4 cpu remain
    const pool = aNodePool({ limits: { cpu: '5' } });
    const pods = Array.from({ length: 3 }, (_, i) => aPod({ name: `web-${i}`, cpu: '1500m' }));

    // Act
    const plan = planFor({ pods, nodePools: [pool], catalog });

    // Assess
    const cpu = plan.nodeClaims.reduce((sum, c) => sum + (c.instanceType.capacity.cpu ?? 0), 0);
    expect(cpu).toBeLessThanOrEqual(5000);
    expect(plan.nodeClaims.flatMap((c) => c.pods)).toHaveLength(2);
    expect(plan.unschedulable.map((u) => u.reason)).toEqual([
      'NodePool default would exceed its cpu limit: 4 of 5 used',
    ]);
  });

  it('lets a claim grow into a larger option only if the limit has room for the difference', () => {
    // Prepare: two lone pods open an m.large each (4 of 6 cpu); two more pods would grow both
    // into an m.xlarge (8 cpu): the first may grow, the second must not
    const pool = aNodePool({ limits: { cpu: '6' } });
    const pods = [
      ...oneEach(2, '1500m'),
      aPod({ name: 'web-0', cpu: '1500m' }),
      aPod({ name: 'web-1', cpu: '1500m' }),
    ];

    // Act
    const plan = planFor({ pods, nodePools: [pool], catalog });

    // Assess: only the last pod is left; the lone pods keep their claims
    expect(types(plan).sort()).toEqual(['m.large', 'm.xlarge']);
    expect(plan.unschedulable.map((u) => u.pod)).toEqual(['default/web-1']);
  });

  it('still fills a claim at its limit with pods that fit without growing it', () => {
    // Prepare: the m.large holding the first pod is all 2 cpu allow; the second pod would grow
    // it to an m.xlarge, the third fits beside the first
    const pool = aNodePool({ limits: { cpu: '2' } });
    const pods = [
      aPod({ name: 'big-0', cpu: '1500m' }),
      aPod({ name: 'big-1', cpu: '1500m' }),
      aPod({ name: 'small', cpu: '250m' }),
    ];

    // Act
    const plan = planFor({ pods, nodePools: [pool], catalog });

    // Assess
    expect(plan.nodeClaims.map((c) => [c.instanceType.name, c.pods.length])).toEqual([
      ['m.large', 2],
    ]);
    expect(plan.nodeClaims[0]?.pods).toContain('default/small');
    expect(plan.unschedulable.map((u) => u.reason)).toEqual([
      'NodePool default would exceed its cpu limit: 2 of 2 used',
    ]);
  });

  it('counts nodes against a nodes limit', () => {
    // Prepare
    const pool = aNodePool({ limits: { nodes: '2' } });

    // Act
    const plan = planFor({ pods: oneEach(3), nodePools: [pool], catalog });

    // Assess
    expect(plan.nodeClaims).toHaveLength(2);
    expect(plan.unschedulable[0]?.reason).toBe(
      'NodePool default would exceed its nodes limit: 2 of 2 used',
    );
  });

  it('counts nodes the pool already runs, those being deleted too', () => {
    // Prepare
    const pool = aNodePool({ limits: { nodes: '3' } });
    const labels = { [Label.nodePool]: 'default', [Label.instanceType]: 'm.large' };
    const taints = [{ key: 'full', effect: 'NoSchedule' as const }];
    const nodes = [
      aNode({ name: 'full', labels, cpu: '2', taints }),
      { ...aNode({ name: 'going', labels, cpu: '2' }), deleting: true },
    ];

    // Act
    const plan = planFor({ pods: oneEach(3, '1500m'), nodes, nodePools: [pool], catalog });

    // Assess
    expect(plan.nodeClaims).toHaveLength(1);
    expect(plan.unschedulable).toHaveLength(2);
  });

  it('moves on to the next pool once a pool reaches its limit', () => {
    // Prepare
    const pools = [
      aNodePool({ name: 'capped', weight: 10, limits: { nodes: '1' } }),
      aNodePool({ name: 'overflow' }),
    ];

    // Act
    const plan = planFor({ pods: oneEach(2), nodePools: pools, catalog });

    // Assess
    expect(plan.nodeClaims.map((c) => c.nodePool)).toEqual(['capped', 'overflow']);
  });
});

describe('the hourly-cost limit', () => {
  it('launches until the next node would pass the limit, and says how much is used', () => {
    // Prepare: on-demand m.large at $0.10
    const pool = aNodePool({ requirements: onDemand, limits: { [HOURLY_COST]: '0.35' } });

    // Act
    const plan = planFor({ pods: oneEach(5), nodePools: [pool], catalog });

    // Assess
    expect(types(plan)).toEqual(['m.large', 'm.large', 'm.large']);
    expect(plan.unschedulable[0]?.reason).toBe(
      'NodePool default would exceed its hourly cost limit: $0.30 of $0.35 used',
    );
  });

  it('leads to cheaper types rather than to no node at all', () => {
    // Prepare: the pod fits an m.xlarge best, but only an m.large is within $0.15
    const pool = aNodePool({ requirements: onDemand, limits: { [HOURLY_COST]: '0.15' } });
    const pod = aPod({ name: 'web', cpu: '1' });

    // Act
    const plan = planFor({ pods: [pod], nodePools: [pool], catalog });

    // Assess
    expect(plan.nodeClaims[0]?.instanceTypeOptions.map((t) => t.name)).toEqual(['m.large']);
  });

  it('counts spot at its spot price, so the same limit holds more spot nodes', () => {
    // Prepare: spot is 40% of on-demand in the test catalog ($0.04 for an m.large)
    const spot = [{ key: Label.capacityType, operator: 'In' as const, values: ['spot'] }];
    const pool = aNodePool({ requirements: spot, limits: { [HOURLY_COST]: '0.2' } });

    // Act
    const plan = planFor({ pods: oneEach(8), nodePools: [pool], catalog });

    // Assess
    expect(plan.nodeClaims).toHaveLength(5);
    expect(hourlyCost(plan)).toBeCloseTo(0.2, 6);
  });

  it('counts the nodes a pool runs at the price of the offering they run on', () => {
    // Prepare: an on-demand m.xlarge ($0.20) runs; $0.25 leaves room for none more
    const pool = aNodePool({ requirements: onDemand, limits: { [HOURLY_COST]: '0.25' } });
    const running = aNode({
      name: 'running',
      cpu: '4',
      labels: {
        [Label.nodePool]: 'default',
        [Label.instanceType]: 'm.xlarge',
        [Label.capacityType]: 'on-demand',
        [Label.zone]: 'test-zone-a',
      },
      taints: [{ key: 'full', effect: 'NoSchedule' }],
    });

    // Act
    const plan = planFor({ pods: oneEach(1), nodes: [running], nodePools: [pool], catalog });

    // Assess
    expect(plan.nodeClaims).toEqual([]);
    expect(plan.unschedulable[0]?.reason).toBe(
      'NodePool default would exceed its hourly cost limit: $0.20 of $0.25 used',
    );
  });
});

describe('the cluster limits', () => {
  it('counts every pool together', () => {
    // Prepare
    const pools = [aNodePool({ name: 'a', weight: 10 }), aNodePool({ name: 'b' })];
    const limits = clusterLimits({ nodes: '3' });

    // Act
    const plan = planFor({ pods: oneEach(5), nodePools: pools, clusterLimits: limits, catalog });

    // Assess
    expect(plan.nodeClaims).toHaveLength(3);
    expect(plan.unschedulable.map((u) => u.reason)).toEqual([
      'The cluster would exceed its nodes limit: 3 of 3 used',
      'The cluster would exceed its nodes limit: 3 of 3 used',
    ]);
  });

  it('holds beside a pool limit: whichever is reached first stops the pool', () => {
    // Prepare
    const pool = aNodePool({ requirements: onDemand, limits: { nodes: '10', cpu: '100' } });
    const limits = clusterLimits({ [HOURLY_COST]: '0.3', cpu: '100' });

    // Act
    const plan = planFor({ pods: oneEach(6), nodePools: [pool], clusterLimits: limits, catalog });

    // Assess
    expect(plan.nodeClaims).toHaveLength(3);
    expect(plan.unschedulable[0]?.reason).toBe(
      'The cluster would exceed its hourly cost limit: $0.30 of $0.30 used',
    );
  });

  it('counts a GPU limit in devices', () => {
    // Prepare
    const gpu = aGpuInstanceType('g.xlarge', 0.5);
    const pods = Array.from({ length: 3 }, (_, i) =>
      aPod({ name: `train-${i}`, cpu: '1', requests: { 'nvidia.com/gpu': '1' } }),
    );

    // Act
    const plan = planFor({
      pods,
      catalog: [gpu],
      clusterLimits: clusterLimits({ 'nvidia.com/gpu': '2' }),
    });

    // Assess
    expect(plan.nodeClaims).toHaveLength(2);
    expect(plan.unschedulable[0]?.reason).toBe(
      'The cluster would exceed its nvidia.com/gpu limit: 2 of 2 used',
    );
  });
});
