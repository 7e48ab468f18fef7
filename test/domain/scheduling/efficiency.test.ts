import { describe, expect, it } from 'vitest';
import { Label } from '../../../functions/domain/labels.ts';
import { GiB } from '../../../functions/domain/resources.ts';
import {
  EfficiencyTable,
  efficientEnvelope,
} from '../../../functions/domain/scheduling/efficiency.ts';
import type { InstanceTypeOption } from '../../../functions/domain/scheduling/instance-type-option.ts';
import { anInstanceType, aPod } from '../../support/builders.ts';
import { anAffinityTerm, planFor, podAffinity } from '../../support/scheduling-builders.ts';

/** An option whose net room is its whole capacity, and the price it ranks by. */
function sized(name: string, cpu: number, memoryGiB: number, price: number) {
  const instanceType = anInstanceType({ name, cpu, memoryGiB, price });
  const option: InstanceTypeOption = { instanceType, net: instanceType.allocatable };
  return { option, price };
}

function tableOf(catalog: readonly ReturnType<typeof sized>[]) {
  return new EfficiencyTable(
    catalog.map((c) => c.option),
    catalog.map((c) => c.price),
  );
}

/** The grid point of a mix with 2^log2Ratio bytes of memory per millicore. */
function point(log2Ratio: number): number {
  return (log2Ratio - 8) * 16;
}

const LINEAR = [
  sized('m.large', 2, 8, 0.1),
  sized('m.xlarge', 4, 16, 0.2),
  sized('m.4xlarge', 16, 64, 0.8),
];

describe('the efficiency table of a NodePool', () => {
  it('lets a claim on a linear family grow into the largest size', () => {
    // Act
    const table = tableOf(LINEAR);

    // Assess
    // 1 MiB per millicore: the 4xlarge holds all of its 16 cores of that mix.
    expect(table.at(point(20))).toBe(16_000);
    // 16 MiB per millicore: memory binds, 64 GiB / 16 MiB = 4,096 millicores.
    expect(table.at(point(24))).toBe(4_096);
  });

  it.each([
    ['priced linearly', 0.8, 16_000],
    ['8 % dearer per core', 0.864, 16_000],
    ['9.9 % dearer per core', 0.8792, 16_000],
    ['10.1 % dearer per core', 0.8808, 4_000],
    ['12 % dearer per core', 0.896, 4_000],
    ['25 % dearer per core', 1.0, 4_000],
  ])('treats a large type %s as efficient only within the limit', (_label, price, largest) => {
    // Prepare
    const catalog = [
      sized('m.large', 2, 8, 0.1),
      sized('m.xlarge', 4, 16, 0.2),
      sized('m.4xlarge', 16, 64, price),
    ];

    // Act
    const table = tableOf(catalog);

    // Assess
    expect(table.at(point(20))).toBe(largest);
  });

  it('follows the type that is cheapest for each CPU:memory mix', () => {
    // Prepare
    const catalog = [sized('c.4xlarge', 16, 32, 0.6), sized('r.large', 2, 16, 0.12)];

    // Act
    const table = tableOf(catalog);

    // Assess
    // About 1 GiB per core: the compute type is cheapest and holds 16 cores.
    expect(table.at(point(20))).toBe(16_000);
    // About 8 GiB per core: the memory type is cheapest; the compute one is 2.4 times dearer.
    expect(table.at(point(23))).toBe(2_000);
  });

  it('never counts a type without CPU or memory as efficient', () => {
    // Prepare
    const catalog = [sized('m.large', 2, 8, 0.1), sized('broken.large', 0, 8, 0.0001)];

    // Act
    const table = tableOf(catalog);

    // Assess
    expect(table.at(point(20))).toBe(2_000);
  });
});

describe('the envelope a claim may grow to', () => {
  const table = tableOf(LINEAR);

  it('scales CPU and memory by the mix on a grid point', () => {
    // Act
    const envelope = efficientEnvelope(table, 1_000, 1_000 * 2 ** 20);

    // Assess
    expect(envelope).toEqual({ cpu: 16_000, memory: 16_000 * 2 ** 20 });
  });

  it('takes the smaller neighbour between grid points', () => {
    // Prepare
    const below = (64 * GiB) / 2 ** 24;
    const above = (64 * GiB) / 2 ** (24 + 1 / 16);

    // Act
    const envelope = efficientEnvelope(table, 1_000, 1_000 * 2 ** 24 * 2 ** (1 / 32));

    // Assess
    expect(below).toBeGreaterThan(above);
    expect(envelope.cpu).toBe(above);
  });

  it.each([
    ['no memory at all', 0],
    ['less memory than the grid starts at', 16],
  ])('clamps a mix with %s to the first grid point', (_label, ratio) => {
    // Act
    const envelope = efficientEnvelope(table, 1_000, 1_000 * ratio);

    // Assess
    expect(envelope.cpu).toBe(Math.min(table.at(0), table.at(1)));
    expect(envelope.cpu).toBe(16_000);
    expect(envelope.memory).toBe(16_000 * ratio);
  });

  it('clamps a mix beyond the last grid point to the last one', () => {
    // Prepare
    const ratio = 2 ** 40;

    // Act
    const envelope = efficientEnvelope(table, 1_000, 1_000 * ratio);

    // Assess
    expect(envelope.cpu).toBe(table.at(table.length - 1));
    expect(envelope.cpu).toBe(64 * GiB * 2 ** -36);
    expect(envelope.memory).toBe(envelope.cpu * ratio);
  });

  it.each([
    ['no CPU', 0],
    ['a negative CPU', -1],
  ])('never holds back requests with %s', (_label, cpu) => {
    // Act
    const envelope = efficientEnvelope(table, cpu, 512 * GiB);

    // Assess
    expect(envelope).toEqual({
      cpu: Number.POSITIVE_INFINITY,
      memory: Number.POSITIVE_INFINITY,
    });
  });
});

describe('growing claims only while they stay cost-efficient', () => {
  const OVERPRICED = [
    anInstanceType({ name: 'm.large', cpu: 2, memoryGiB: 8, price: 0.1 }),
    anInstanceType({ name: 'm.xlarge', cpu: 4, memoryGiB: 16, price: 0.2 }),
    anInstanceType({ name: 'm.4xlarge', cpu: 16, memoryGiB: 64, price: 1.0 }),
  ];

  function web(count: number) {
    return Array.from({ length: count }, (_, i) =>
      aPod({ name: `web-${i}`, cpu: '1', memory: '1Gi' }),
    );
  }

  function shapes(plan: ReturnType<typeof planFor>) {
    return plan.nodeClaims.map((c) => [c.name, c.instanceType.name, c.pods.length]);
  }

  it('stops a claim before an inefficient step-up and opens another for the next pod', () => {
    // Act
    const plan = planFor({ pods: web(5), catalog: OVERPRICED });

    // Assess
    expect(shapes(plan)).toEqual([
      ['default-0', 'm.xlarge', 4],
      ['default-1', 'm.large', 1],
    ]);
    expect(plan.unschedulable).toEqual([]);
  });

  it('changes nothing on a linear family: the claim grows into the largest size', () => {
    // Prepare
    const linear = OVERPRICED.map((it) =>
      it.name === 'm.4xlarge'
        ? anInstanceType({ name: 'm.4xlarge', cpu: 16, memoryGiB: 64, price: 0.8 })
        : it,
    );

    // Act
    const plan = planFor({ pods: web(5), catalog: linear });

    // Assess
    expect(shapes(plan)).toEqual([['default-0', 'm.4xlarge', 5]]);
  });

  it('lets pods that must share a node grow past the efficient size', () => {
    // Prepare
    const pods = Array.from({ length: 5 }, (_, i) =>
      aPod({
        name: `cache-${i}`,
        cpu: '1',
        memory: '1Gi',
        labels: { app: 'cache' },
        affinity: podAffinity(anAffinityTerm(Label.hostname, { app: 'cache' })),
      }),
    );

    // Act
    const plan = planFor({ pods, catalog: OVERPRICED });

    // Assess
    expect(shapes(plan)).toEqual([['default-0', 'm.4xlarge', 5]]);
  });

  it('always takes the first pod of a claim, even on an inefficient type', () => {
    // Prepare
    const big = aPod({ name: 'big', cpu: '8', memory: '8Gi' });

    // Act
    const plan = planFor({ pods: [big], catalog: OVERPRICED });

    // Assess
    expect(shapes(plan)).toEqual([['default-0', 'm.4xlarge', 1]]);
  });
});
