import { describe, expect, it } from 'vitest';
import { Label } from '../../../../functions/domain/labels.ts';
import type { Pod } from '../../../../functions/domain/pod.ts';
import type { NodeSelectorRequirement } from '../../../../functions/domain/requirements/requirement.ts';
import type { ProvisioningPlan } from '../../../../functions/domain/scheduling/provisioning-plan.ts';
import { aNodePool, anInstanceType, aPod } from '../../../support/builders.ts';
import { aSpread, planFor } from '../../../support/scheduling-builders.ts';

/** Three 16-CPU types: 1, 4 and 8 GiB per CPU, priced so the middle one is dearest per CPU. */
const CATALOG = [
  anInstanceType({ name: 'c.4xlarge', cpu: 16, memoryGiB: 16, price: 0.4 }),
  anInstanceType({ name: 'm.4xlarge', cpu: 16, memoryGiB: 64, price: 0.6 }),
  anInstanceType({ name: 'r.4xlarge', cpu: 16, memoryGiB: 128, price: 0.9 }),
];

const ON_DEMAND: NodeSelectorRequirement[] = [
  { key: Label.capacityType, operator: 'In', values: ['on-demand'] },
];

/**
 * Sixteen CPU-heavy pods and sixteen memory-heavy ones. Largest CPU first, the scheduler fills a
 * c.4xlarge with the first and, as they arrive after it, an r.4xlarge with the second ($1.30);
 * two m.4xlarge holding eight of each hold them all ($1.20).
 */
function mixedPods(memoryHeavy: (i: number) => Partial<Parameters<typeof aPod>[0]> = () => ({})) {
  const cpuHeavy = Array.from({ length: 16 }, (_, i) =>
    aPod({ name: `web-${i}`, cpu: '1', memory: '512Mi' }),
  );
  const memoryHeavyPods = Array.from({ length: 16 }, (_, i) =>
    aPod({ name: `cache-${i}`, cpu: '500m', memory: '6Gi', ...memoryHeavy(i) }),
  );
  return [...cpuHeavy, ...memoryHeavyPods];
}

function plan(pods: readonly Pod[], nodePool = aNodePool({ requirements: ON_DEMAND })) {
  return planFor({ pods, nodePools: [nodePool], catalog: CATALOG });
}

function types(p: ProvisioningPlan): string[] {
  return p.nodeClaims.map((c) => c.instanceType.name).sort();
}

function cost(p: ProvisioningPlan): number {
  return p.nodeClaims.reduce((sum, c) => sum + c.offering.pricePerHour, 0);
}

describe('packing the claims of pods free to go anywhere again, by cost', () => {
  it('mixes CPU-heavy and memory-heavy pods on nodes that hold both when that costs less', () => {
    // Prepare
    const pods = mixedPods();

    // Act
    const result = plan(pods);

    // Assess
    expect(types(result)).toEqual(['m.4xlarge', 'm.4xlarge']);
    expect(cost(result)).toBeCloseTo(1.2);
    expect(result.nodeClaims.flatMap((c) => c.pods).sort()).toEqual(
      pods.map((p) => `default/${p.name}`).sort(),
    );
    expect(result.unschedulable).toEqual([]);
  });

  it('lists every type that holds a repacked claim, cheapest first, with its requests', () => {
    // Prepare
    const pods = mixedPods();

    // Act
    const claims = plan(pods).nodeClaims;

    // Assess
    for (const claim of claims) {
      expect(claim.instanceTypeOptions.map((t) => t.name)).toEqual(['m.4xlarge', 'r.4xlarge']);
      expect(claim.requests.pods).toBe(claim.pods.length);
    }
    expect(claims.reduce((sum, c) => sum + (c.requests.cpu ?? 0), 0)).toBe(24_000);
  });

  it('leaves pods that a topology spread counts where the scheduler put them', () => {
    // Prepare: the memory-heavy pods spread over the three zones
    const pods = mixedPods(() => ({
      labels: { app: 'cache' },
      topologySpreadConstraints: [aSpread({ matchLabels: { app: 'cache' } })],
    }));

    // Act
    const result = plan(pods);

    // Assess
    const byZone = result.nodeClaims
      .filter((c) => c.pods.some((p) => p.startsWith('default/cache-')))
      .map((c) => [c.offering.zone, c.pods.length]);
    expect(byZone).toEqual([
      ['test-zone-a', 6],
      ['test-zone-b', 5],
      ['test-zone-c', 5],
    ]);
    expect(result.nodeClaims[0]?.instanceType.name).toBe('c.4xlarge');
  });

  it('leaves pods that require node labels where the scheduler put them', () => {
    // Prepare
    const pods = mixedPods(() => ({ nodeSelector: { 'kubernetes.io/os': 'linux' } }));

    // Act
    const result = plan(pods);

    // Assess
    expect(types(result)).toEqual(['c.4xlarge', 'r.4xlarge']);
  });

  it('leaves the claims of a pool with limits as the scheduler counted them', () => {
    // Prepare
    const pool = aNodePool({ requirements: ON_DEMAND, limits: { cpu: '1000' } });

    // Act
    const result = plan(mixedPods(), pool);

    // Assess
    expect(types(result)).toEqual(['c.4xlarge', 'r.4xlarge']);
  });

  it('keeps a lone claim whole, though two smaller nodes would cost a little less', () => {
    // Prepare: two 3.5-CPU pods grow one claim into an 8-CPU type within 10 % of the 4-CPU
    // type's cost per CPU; splitting it would save $0.032 but give consolidation two nodes to
    // replace one with
    const catalog = [
      anInstanceType({ name: 'c.xlarge', cpu: 4, memoryGiB: 8, price: 0.2 }),
      anInstanceType({ name: 'c.2xlarge', cpu: 8, memoryGiB: 16, price: 0.432 }),
    ];
    const pods = [aPod({ name: 'a', cpu: '3500m' }), aPod({ name: 'b', cpu: '3500m' })];

    // Act
    const result = planFor({ pods, nodePools: [aNodePool({ requirements: ON_DEMAND })], catalog });

    // Assess
    expect(types(result)).toEqual(['c.2xlarge']);
  });
});
