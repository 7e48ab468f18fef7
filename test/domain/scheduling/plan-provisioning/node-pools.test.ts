import { describe, expect, it } from 'vitest';
import { Label } from '../../../../functions/domain/labels.ts';
import {
  aNode,
  aNodePool,
  anInstanceType,
  aPod,
  someInstanceTypes,
} from '../../../support/builders.ts';
import { placementOf, planFor } from '../../../support/scheduling-builders.ts';

describe('choosing a NodePool', () => {
  it('opens claims from the heaviest pool first', () => {
    // Prepare
    const pools = [
      aNodePool({ name: 'light', weight: 10 }),
      aNodePool({ name: 'heavy', weight: 50 }),
    ];
    const pod = aPod({ name: 'web', cpu: '1' });

    // Act
    const plan = planFor({ pods: [pod], nodePools: pools });

    // Assess
    expect(placementOf(plan, pod)).toMatchObject({ kind: 'claim', nodePool: 'heavy' });
  });

  it('orders pools of equal weight by name', () => {
    // Prepare
    const pools = [aNodePool({ name: 'zeta' }), aNodePool({ name: 'alpha' })];
    const pod = aPod({ name: 'web', cpu: '1' });

    // Act
    const plan = planFor({ pods: [pod], nodePools: pools });

    // Assess
    expect(placementOf(plan, pod)).toMatchObject({ nodePool: 'alpha' });
  });

  it('falls back to the next pool when the heavier one cannot take the pod', () => {
    // Prepare
    const pools = [
      aNodePool({
        name: 'arm-only',
        weight: 100,
        requirements: [{ key: Label.arch, operator: 'In', values: ['arm64'] }],
      }),
      aNodePool({ name: 'general' }),
    ];
    const pod = aPod({ name: 'x86', cpu: '1', nodeSelector: { [Label.arch]: 'amd64' } });

    // Act
    const plan = planFor({ pods: [pod], nodePools: pools });

    // Assess
    expect(placementOf(plan, pod)).toMatchObject({ nodePool: 'general', instanceType: 'm.large' });
  });

  it('gives every pool reason when no pool can take the pod', () => {
    // Prepare
    const pools = [
      aNodePool({ name: 'a', taints: [{ key: 'team', value: 'a', effect: 'NoSchedule' }] }),
      aNodePool({
        name: 'b',
        requirements: [{ key: Label.arch, operator: 'In', values: ['arm64'] }],
      }),
    ];
    const pod = aPod({ name: 'web', cpu: '1', nodeSelector: { [Label.arch]: 'amd64' } });

    // Act
    const plan = planFor({ pods: [pod], nodePools: pools });

    // Assess
    expect(plan.unschedulable[0]?.reasons.map((r) => [r.nodePool, r.code])).toEqual([
      ['a', 'Taints'],
      ['b', 'Requirements'],
    ]);
    expect(plan.unschedulable[0]?.reason).toContain(
      'nodepool "a": did not tolerate team=a:NoSchedule',
    );
  });

  it('says so when no pool can launch anything', () => {
    // Prepare
    const pod = aPod({ name: 'web', cpu: '1' });

    // Act
    const withoutPools = planFor({ pods: [pod], nodePools: [] });
    const withoutTypes = planFor({ pods: [pod], catalog: [] });

    // Assess
    expect(withoutPools.unschedulable[0]?.reasons[0]?.code).toBe('NoNodePools');
    expect(withoutTypes.unschedulable[0]?.reasons[0]?.code).toBe('NoNodePools');
  });

  it('uses only the instance types given for each pool', () => {
    // Prepare
    const pools = [aNodePool({ name: 'small' }), aNodePool({ name: 'large' })];
    const types = someInstanceTypes();
    const instanceTypes = new Map([
      ['small', types.filter((t) => t.name === 'm.large')],
      ['large', types.filter((t) => t.name === 'm.4xlarge')],
    ]);
    const pod = aPod({ name: 'web', cpu: '8' });

    // Act
    const plan = planFor({ pods: [pod], nodePools: pools, instanceTypes });

    // Assess
    expect(placementOf(plan, pod)).toMatchObject({ nodePool: 'large', instanceType: 'm.4xlarge' });
  });

  it('stamps the pool, its template labels and its taints on the claim', () => {
    // Prepare
    const pool = aNodePool({
      name: 'team-a',
      labels: { team: 'a' },
      taints: [{ key: 'team', value: 'a', effect: 'NoSchedule' }],
    });
    const pod = aPod({
      name: 'web',
      cpu: '1',
      tolerations: [{ key: 'team', operator: 'Exists' }],
    });

    // Act
    const plan = planFor({ pods: [pod], nodePools: [pool], region: 'test-region' });

    // Assess
    const claim = plan.nodeClaims[0];
    expect(claim?.labels).toMatchObject({
      team: 'a',
      [Label.nodePool]: 'team-a',
      [Label.nodeClass]: 'default',
      [Label.region]: 'test-region',
      [Label.zone]: 'test-zone-a',
    });
    expect(claim?.labels[Label.hostname]).toBeUndefined();
    expect(claim?.taints).toEqual([{ key: 'team', value: 'a', effect: 'NoSchedule' }]);
    expect(claim?.nodeClass).toBe('default');
  });
});

describe('capacity types', () => {
  it('prefers spot when the pool allows spot and on-demand', () => {
    // Prepare
    const pod = aPod({ name: 'web', cpu: '1' });

    // Act
    const plan = planFor({ pods: [pod], nodePools: [aNodePool()] });

    // Assess
    expect(placementOf(plan, pod)).toMatchObject({ capacityType: 'spot' });
    expect(plan.nodeClaims[0]?.labels[Label.capacityType]).toBe('spot');
  });

  it('launches on-demand when the pool says nothing about capacity types', () => {
    // Prepare
    const pool = aNodePool({ requirements: [] });
    const pod = aPod({ name: 'web', cpu: '1' });

    // Act
    const plan = planFor({ pods: [pod], nodePools: [pool] });

    // Assess
    expect(placementOf(plan, pod)).toMatchObject({ capacityType: 'on-demand' });
  });

  it('lets a pod ask for on-demand in a pool that allows both', () => {
    // Prepare
    const pod = aPod({ name: 'db', cpu: '1', nodeSelector: { [Label.capacityType]: 'on-demand' } });

    // Act
    const plan = planFor({ pods: [pod] });

    // Assess
    expect(placementOf(plan, pod)).toMatchObject({ capacityType: 'on-demand' });
  });

  it.each([
    {
      name: 'falls back to on-demand when no spot offering is available',
      unavailable: ['test-zone-a/spot', 'test-zone-b/spot', 'test-zone-c/spot'],
      placement: { capacityType: 'on-demand' },
    },
    {
      name: 'picks the zone of the cheapest available offering',
      unavailable: ['test-zone-a/spot'],
      placement: { zone: 'test-zone-b', capacityType: 'spot' },
    },
  ])('$name', ({ unavailable, placement }) => {
    // Prepare
    const catalog = [
      anInstanceType({ name: 'm.large', cpu: 2, memoryGiB: 8, price: 0.1, unavailable }),
    ];
    const pod = aPod({ name: 'web', cpu: '1' });

    // Act
    const plan = planFor({ pods: [pod], catalog });

    // Assess
    expect(placementOf(plan, pod)).toMatchObject(placement);
  });
});

describe('NodePool requirements on instance types', () => {
  const catalog = [
    anInstanceType({ name: 'm.large', cpu: 2, memoryGiB: 8, price: 0.1 }),
    anInstanceType({ name: 'c.large', cpu: 2, memoryGiB: 4, price: 0.09 }),
    anInstanceType({ name: 'r.large', cpu: 2, memoryGiB: 16, price: 0.13 }),
    anInstanceType({ name: 'm.xlarge', cpu: 4, memoryGiB: 16, price: 0.2 }),
    anInstanceType({ name: 'g.large', cpu: 2, memoryGiB: 8, price: 0.08, arch: 'arm64' }),
  ];

  it.each([
    ['Gt', [{ key: Label.instanceCpu, operator: 'Gt' as const, values: ['2'] }], ['m.xlarge']],
    [
      'Lt',
      [{ key: Label.instanceCpu, operator: 'Lt' as const, values: ['4'] }],
      ['g.large', 'c.large', 'm.large', 'r.large'],
    ],
    ['Gte', [{ key: Label.instanceCpu, operator: 'Gte' as const, values: ['4'] }], ['m.xlarge']],
    [
      'NotIn',
      [{ key: Label.instanceFamily, operator: 'NotIn' as const, values: ['g', 'c'] }],
      ['m.large', 'r.large', 'm.xlarge'],
    ],
    [
      'In',
      [{ key: Label.instanceType, operator: 'In' as const, values: ['r.large'] }],
      ['r.large'],
    ],
  ])(
    'keeps only the instance types a %s requirement allows',
    (_operator, requirements, options) => {
      // Prepare
      const pool = aNodePool({ requirements });
      const pod = aPod({ name: 'web', cpu: '1' });

      // Act
      const plan = planFor({ pods: [pod], nodePools: [pool], catalog });

      // Assess
      expect(plan.nodeClaims[0]?.instanceTypeOptions.map((it) => it.name)).toEqual(options);
    },
  );

  it('keeps at least minValues instance families on a claim', () => {
    // Prepare
    const pool = aNodePool({
      requirements: [{ key: Label.instanceFamily, operator: 'Exists', minValues: 2 }],
    });
    const pod = aPod({ name: 'web', cpu: '1' });

    // Act
    const plan = planFor({ pods: [pod], nodePools: [pool], catalog });

    // Assess
    const families = new Set(
      plan.nodeClaims[0]?.instanceTypeOptions.map((it) => it.name.split('.')[0]),
    );
    expect(families.size).toBeGreaterThanOrEqual(2);
    expect(plan.nodeClaims[0]?.requirements.get(Label.instanceFamily)?.minValues).toBe(2);
  });

  it('refuses a pod that would leave fewer instance families than minValues', () => {
    // Prepare
    const pool = aNodePool({
      requirements: [{ key: Label.instanceFamily, operator: 'Exists', minValues: 2 }],
    });
    const pod = aPod({ name: 'arm', cpu: '1', nodeSelector: { [Label.arch]: 'arm64' } });

    // Act
    const plan = planFor({ pods: [pod], nodePools: [pool], catalog });

    // Assess
    expect(plan.unschedulable[0]?.reasons[0]).toEqual({
      nodePool: 'default',
      code: 'MinValues',
      message: `minValues 2 of ${Label.instanceFamily} cannot be met`,
    });
  });
});

// core: provisioning/provisioner.go, NewScheduler leaves static pools out of scheduling.
describe('static NodePools (replicas set)', () => {
  const staticPool = (name: string, weight?: number) => {
    const pool = aNodePool({ name, ...(weight === undefined ? {} : { weight }) });
    return { ...pool, spec: { ...pool.spec, replicas: 2 } };
  };

  it('are never planned for pods, however heavy: the next pool takes them', () => {
    // Prepare
    const pod = aPod({ name: 'web', cpu: '1' });

    // Act
    const plan = planFor({ pods: [pod], nodePools: [staticPool('fixed', 100), aNodePool()] });

    // Assess
    expect(placementOf(plan, pod)).toMatchObject({ kind: 'claim', nodePool: 'default' });
  });

  it('leave a pod unschedulable with their reason when no dynamic pool exists', () => {
    // Prepare
    const pod = aPod({ name: 'web', cpu: '1' });

    // Act
    const plan = planFor({ pods: [pod], nodePools: [staticPool('fixed')] });

    // Assess
    expect(plan.nodeClaims).toEqual([]);
    expect(plan.unschedulable[0]?.reasons).toEqual([
      expect.objectContaining({ nodePool: 'fixed', code: 'Static' }),
    ]);
  });

  it("place pods on the pool's existing nodes, as on any node", () => {
    // Prepare
    const node = aNode({ name: 'fixed-a', labels: { [Label.nodePool]: 'fixed' } });
    const pod = aPod({ name: 'web', cpu: '1' });

    // Act
    const plan = planFor({ pods: [pod], nodes: [node], nodePools: [staticPool('fixed')] });

    // Assess
    expect(placementOf(plan, pod)).toEqual({ kind: 'node', node: 'fixed-a' });
  });
});
