import { describe, expect, it } from 'vitest';
import { Label } from '../../../functions/domain/labels.ts';
import { aNodePool, anInstanceType, aPod } from '../../support/builders.ts';
import { anAffinityTerm, planFor, podAntiAffinity } from '../../support/scheduling-builders.ts';

const CATALOG = [
  anInstanceType({
    name: 'm.xlarge',
    cpu: 4,
    memoryGiB: 16,
    price: 0.2,
    labels: { [Label.instanceGeneration]: '6' },
  }),
];

/** A pod that needs a node of its own, from the named pool. */
function soloFrom(nodePool: string, name: string, cpu: string) {
  return aPod({
    name,
    cpu,
    labels: { app: 'solo' },
    nodeSelector: { [Label.nodePool]: nodePool },
    affinity: podAntiAffinity(anAffinityTerm(Label.hostname, { app: 'solo' })),
  });
}

describe('naming planned claims', () => {
  it('numbers claims per pool in the order they were opened', () => {
    // Prepare
    const pools = [aNodePool({ name: 'a' }), aNodePool({ name: 'b' })];
    // Largest first: the pods open claims in this order.
    const pods = [
      soloFrom('b', 'first', '4'),
      soloFrom('a', 'second', '3'),
      soloFrom('b', 'third', '2'),
      soloFrom('a', 'fourth', '1'),
    ];

    // Act
    const plan = planFor({ pods, nodePools: pools, catalog: CATALOG });

    // Assess
    expect(plan.nodeClaims.map((c) => [c.name, c.nodePool, c.pods])).toEqual([
      ['b-0', 'b', ['default/first']],
      ['a-0', 'a', ['default/second']],
      ['b-1', 'b', ['default/third']],
      ['a-1', 'a', ['default/fourth']],
    ]);
  });
});

describe('labelling planned nodes', () => {
  const pool = aNodePool({
    name: 'general',
    labels: { team: 'platform', tier: 'web' },
    requirements: [{ key: Label.capacityType, operator: 'In', values: ['on-demand'] }],
  });

  it('gives a node its pool, class, template labels, instance type labels, zone and region', () => {
    // Prepare
    const pod = aPod({ name: 'web', cpu: '1' });

    // Act
    const plan = planFor({ pods: [pod], nodePools: [pool], catalog: CATALOG, region: 'test-1' });

    // Assess
    const labels = plan.nodeClaims[0]?.labels;
    expect(labels).toEqual({
      [Label.nodePool]: 'general',
      [Label.capacityType]: 'on-demand',
      [Label.nodeClass]: 'default',
      [Label.instanceCpu]: '4',
      [Label.instanceFamily]: 'm',
      [Label.instanceGeneration]: '6',
      [Label.arch]: 'amd64',
      [Label.os]: 'linux',
      [Label.instanceType]: 'm.xlarge',
      team: 'platform',
      tier: 'web',
      [Label.region]: 'test-1',
      [Label.zone]: 'test-zone-a',
    });
    expect(Object.keys(labels ?? {})).toEqual(Object.keys(labels ?? {}).sort());
  });

  it('leaves the region out when none is given, and never writes a hostname', () => {
    // Prepare
    const pod = aPod({ name: 'web', cpu: '1' });

    // Act
    const plan = planFor({ pods: [pod], nodePools: [pool], catalog: CATALOG });

    // Assess
    const claim = plan.nodeClaims[0];
    expect(claim?.labels).not.toHaveProperty([Label.region]);
    expect(claim?.labels).not.toHaveProperty([Label.hostname]);
    expect(claim?.requirements.has(Label.hostname)).toBe(false);
  });

  it('labels the zone ID of the chosen offering when it has one', () => {
    // Prepare
    const base = CATALOG[0] ?? anInstanceType({ name: 'x', cpu: 1, memoryGiB: 1, price: 1 });
    const withIds = {
      ...base,
      offerings: base.offerings.map((o) => ({ ...o, zoneId: `${o.zone}-id` })),
    };
    const pod = aPod({ name: 'web', cpu: '1' });

    // Act
    const plan = planFor({ pods: [pod], nodePools: [pool], catalog: [withIds] });

    // Assess
    expect(plan.nodeClaims[0]?.labels[Label.zoneId]).toBe('test-zone-a-id');
  });

  it('writes the zone a pod asked for, not only the cheapest one', () => {
    // Prepare
    const pod = aPod({ name: 'web', cpu: '1', nodeSelector: { [Label.zone]: 'test-zone-c' } });

    // Act
    const plan = planFor({ pods: [pod], nodePools: [pool], catalog: CATALOG });

    // Assess
    expect(plan.nodeClaims[0]?.labels[Label.zone]).toBe('test-zone-c');
    expect(plan.nodeClaims[0]?.offering.zone).toBe('test-zone-c');
  });

  it('labels the values the claim settled on for custom requirements', () => {
    // Prepare
    const custom = aNodePool({
      name: 'custom',
      requirements: [
        { key: 'stage', operator: 'In', values: ['prod', 'canary'] },
        { key: 'shard', operator: 'NotIn', values: ['0'] },
      ],
    });
    const pod = aPod({ name: 'web', cpu: '1', nodeSelector: { stage: 'prod' } });

    // Act
    const plan = planFor({ pods: [pod], nodePools: [custom], catalog: CATALOG });

    // Assess
    expect(plan.nodeClaims[0]?.labels).toMatchObject({ stage: 'prod', shard: '1' });
  });
});
