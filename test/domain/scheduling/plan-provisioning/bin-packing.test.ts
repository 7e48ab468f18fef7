import { describe, expect, it } from 'vitest';
import { BUNDLED_CATALOG } from '../../../../functions/domain/instance-types/bundled-catalog.ts';
import { buildInstanceTypes } from '../../../../functions/domain/instance-types/instance-types.ts';
import { onDemandPrices } from '../../../../functions/domain/instance-types/prices.ts';
import {
  aGpuInstanceType,
  anInstanceType,
  aPod,
  someInstanceTypes,
} from '../../../support/builders.ts';
import { placementOf, planFor } from '../../../support/scheduling-builders.ts';

const FOUR_CPU = anInstanceType({ name: 'c.xlarge', cpu: 4, memoryGiB: 8, price: 0.2 });

describe('packing pending pods onto new nodes', () => {
  it('places the largest pods first and then fills the emptiest claims', () => {
    // Prepare
    const pods = [
      aPod({ name: 'small-1', cpu: '1' }),
      aPod({ name: 'large-1', cpu: '3' }),
      aPod({ name: 'small-2', cpu: '1' }),
      aPod({ name: 'large-2', cpu: '3' }),
    ];

    // Act
    const plan = planFor({ pods, catalog: [FOUR_CPU] });

    // Assess
    expect(plan.nodeClaims.map((c) => c.pods)).toEqual([
      ['default/large-1', 'default/small-1'],
      ['default/large-2', 'default/small-2'],
    ]);
  });

  it('puts several small pods on one node', () => {
    // Prepare
    const pods = [1, 2, 3, 4].map((i) => aPod({ name: `web-${i}`, cpu: '500m', memory: '1Gi' }));

    // Act
    const plan = planFor({ pods, catalog: [FOUR_CPU] });

    // Assess
    expect(plan.nodeClaims).toHaveLength(1);
    expect(plan.nodeClaims[0]?.pods).toHaveLength(4);
  });

  it('launches the cheapest instance type that fits, listing the other options cheapest first', () => {
    // Prepare
    const pod = aPod({ name: 'web', cpu: '3' });

    // Act
    const plan = planFor({ pods: [pod] });

    // Assess
    const claim = plan.nodeClaims[0];
    expect(claim?.instanceType.name).toBe('g.xlarge');
    expect(claim?.instanceTypeOptions.map((it) => it.name)).toEqual([
      'g.xlarge',
      'm.xlarge',
      'm.4xlarge',
    ]);
    expect(claim?.offering).toMatchObject({ zone: 'test-zone-a', capacityType: 'spot' });
  });

  it('reports a pod bigger than every instance type, naming the resource', () => {
    // Prepare
    const pods = [
      aPod({ name: 'cpu-hog', cpu: '100' }),
      aPod({ name: 'memory-hog', memory: '1000Gi' }),
      aPod({ name: 'gpu', requests: { 'nvidia.com/gpu': '1' } }),
    ];

    // Act
    const plan = planFor({ pods });

    // Assess
    expect(plan.nodeClaims).toEqual([]);
    expect(plan.unschedulable.map((u) => [u.pod, u.reason])).toEqual([
      ['default/cpu-hog', 'nodepool "default": no instance type has 100 cpu'],
      ['default/gpu', 'nodepool "default": no instance type has 1 nvidia.com/gpu'],
      ['default/memory-hog', 'nodepool "default": no instance type has 1000Gi memory'],
    ]);
    expect(plan.unschedulable[0]?.reasons).toEqual([
      { nodePool: 'default', code: 'Resources', message: 'no instance type has 100 cpu' },
    ]);
  });

  it('places an extended-resource pod only on a type that has the resource', () => {
    // Prepare
    const gpu = aGpuInstanceType('p.xlarge', 3);
    const pod = aPod({ name: 'train', cpu: '1', requests: { 'nvidia.com/gpu': '1' } });

    // Act
    const plan = planFor({ pods: [pod], catalog: [...someInstanceTypes(), gpu] });

    // Assess
    expect(plan.nodeClaims.map((c) => c.instanceTypeOptions.map((it) => it.name))).toEqual([
      ['p.xlarge'],
    ]);
  });

  it('places an EFA pod only on a type with EFA interfaces, and the claim asks for them', () => {
    // Prepare
    const catalog = buildInstanceTypes({
      catalog: BUNDLED_CATALOG.filter((entry) =>
        ['m5.large', 'c5n.4xlarge', 'c5n.9xlarge'].includes(entry.name),
      ),
      region: 'us-east-1',
      prices: onDemandPrices('us-east-1').prices,
      zones: ['test-zone-a'],
    });
    const pod = aPod({ name: 'mpi', cpu: '1', requests: { 'vpc.amazonaws.com/efa': '1' } });

    // Act
    const plan = planFor({ pods: [pod], catalog });

    // Assess
    const [claim] = plan.nodeClaims;
    expect(claim?.instanceTypeOptions.map((it) => it.name)).toEqual(['c5n.9xlarge']);
    expect(claim?.requests).toMatchObject({ 'vpc.amazonaws.com/efa': 1 });
  });

  it('honours the pods capacity of an instance type', () => {
    // Prepare
    const tiny = anInstanceType({ name: 't.small', cpu: 2, memoryGiB: 2, pods: 3, price: 0.02 });
    const pods = [1, 2, 3, 4, 5].map((i) => aPod({ name: `p-${i}`, cpu: '10m' }));

    // Act
    const plan = planFor({ pods, catalog: [tiny] });

    // Assess
    expect(plan.nodeClaims.map((c) => c.pods.length)).toEqual([3, 2]);
  });

  it('keeps the summed requests of a claim', () => {
    // Prepare
    const pods = [aPod({ name: 'a', cpu: '1', memory: '1Gi' }), aPod({ name: 'b', cpu: '500m' })];

    // Act
    const plan = planFor({ pods, catalog: [FOUR_CPU] });

    // Assess
    expect(plan.nodeClaims[0]?.requests).toEqual({ cpu: 1500, memory: 1024 ** 3, pods: 2 });
  });

  it('names claims per pool in the order they were opened', () => {
    // Prepare
    const pods = [1, 2, 3].map((i) => aPod({ name: `big-${i}`, cpu: '3' }));

    // Act
    const plan = planFor({ pods, catalog: [FOUR_CPU] });

    // Assess
    expect(plan.nodeClaims.map((c) => c.name)).toEqual(['default-0', 'default-1', 'default-2']);
    expect(placementOf(plan, 'default/big-3')).toMatchObject({ kind: 'claim', claim: 'default-2' });
  });
});
