import { describe, expect, it } from 'vitest';
import { BUNDLED_CATALOG } from '../../../functions/domain/instance-types/bundled-catalog.ts';
import type { CatalogEntry } from '../../../functions/domain/instance-types/catalog.ts';
import { buildInstanceTypes } from '../../../functions/domain/instance-types/instance-types.ts';
import { onDemandPrices } from '../../../functions/domain/instance-types/prices.ts';
import type { PlacementGroup } from '../../../functions/domain/placement-group.ts';
import { appPods, aSpread, planFor } from '../../support/scheduling-builders.ts';
import { aNodeClass, buildOne, catalogEntry, labelsOf } from './builders.ts';

const PARTITIONS: PlacementGroup = {
  id: 'pg-0123456789abcdef0',
  name: 'training',
  strategy: 'partition',
  partitionCount: 3,
};
const CLUSTER: PlacementGroup = { id: 'pg-0fedcba9876543210', name: 'mpi', strategy: 'cluster' };

describe('instance types of a class in a placement group', () => {
  // aws: pkg/providers/instancetype/offering/offering.go `InjectOfferings`
  it('carry the group id, and a partition group’s partitions', () => {
    // Prepare
    const groups = [PARTITIONS, CLUSTER, undefined];

    // Act
    const [partitioned, clustered, plain] = groups.map((placementGroup) =>
      labelsOf(buildOne('m5.large', { placementGroup }).requirements),
    );

    // Assess
    expect(partitioned).toMatchObject({
      'karpenter.k8s.aws/placement-group-id': ['pg-0123456789abcdef0'],
      'karpenter.k8s.aws/placement-group-partition': ['1', '2', '3'],
    });
    expect(clustered).toMatchObject({
      'karpenter.k8s.aws/placement-group-id': ['pg-0fedcba9876543210'],
    });
    expect(clustered).not.toHaveProperty(['karpenter.k8s.aws/placement-group-partition']);
    expect(plain).not.toHaveProperty(['karpenter.k8s.aws/placement-group-id']);
  });

  it('offer no partition past the seventh, the most EC2 gives a group in a zone', () => {
    // Prepare
    const placementGroup: PlacementGroup = { ...PARTITIONS, partitionCount: 9 };

    // Act
    const labels = labelsOf(buildOne('m5.large', { placementGroup }).requirements);

    // Assess
    expect(labels['karpenter.k8s.aws/placement-group-partition']).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
      '7',
    ]);
  });

  // aws: pkg/providers/instancetype/offering/placement_group_resolver.go
  it('offer every zone and capacity type once per partition of a partition group', () => {
    // Prepare
    const placementGroup = PARTITIONS;

    // Act
    const partitioned = buildOne('m5.large', { placementGroup });
    const clustered = buildOne('m5.large', { placementGroup: CLUSTER });

    // Assess
    expect(partitioned.offerings).toHaveLength(clustered.offerings.length * 3);
    const spotA = partitioned.offerings.filter(
      (o) => o.zone === 'us-east-1a' && o.capacityType === 'spot',
    );
    expect(spotA.map((o) => o.partition)).toEqual(['1', '2', '3']);
    expect(clustered.offerings.every((o) => o.partition === undefined)).toBe(true);
  });

  // aws: pkg/providers/instancetype/compatibility/compatibility.go `placementGroupCompatibility`
  it('leave no offering available on a type EC2 does not launch into the group’s strategy', () => {
    // Prepare: DescribeInstanceTypes lists no cluster strategy for burstable types
    const burstable: CatalogEntry = {
      ...catalogEntry('t3.medium'),
      placementStrategies: ['partition', 'spread'],
    };
    const build = (placementGroup: PlacementGroup) =>
      buildOne('t3.medium', { catalog: [burstable], nodeClass: aNodeClass(), placementGroup });

    // Act
    const inCluster = build(CLUSTER);
    const inPartitions = build(PARTITIONS);

    // Assess
    expect(inCluster.offerings.length).toBeGreaterThan(0);
    expect(inCluster.offerings.some((o) => o.available)).toBe(false);
    expect(inPartitions.offerings.every((o) => o.available)).toBe(true);
  });

  it('let pods spread over the partitions, each node labelled with its own', () => {
    // Prepare
    const catalog = buildInstanceTypes({
      catalog: BUNDLED_CATALOG.filter((entry) => entry.name === 'm5.large'),
      region: 'us-east-1',
      prices: onDemandPrices('us-east-1').prices,
      zones: ['test-zone-a'],
      placementGroup: PARTITIONS,
    });
    const spread = aSpread({
      matchLabels: { app: 'db' },
      topologyKey: 'karpenter.k8s.aws/placement-group-partition',
    });
    const pods = appPods('db', 3, { cpu: '100m', topologySpreadConstraints: [spread] });

    // Act
    const plan = planFor({ pods, catalog });

    // Assess
    expect(plan.unschedulable).toEqual([]);
    const partitions = plan.nodeClaims.map(
      (claim) => claim.labels['karpenter.k8s.aws/placement-group-partition'],
    );
    expect(partitions.sort()).toEqual(['1', '2', '3']);
    for (const claim of plan.nodeClaims) {
      expect(claim.labels['karpenter.k8s.aws/placement-group-id']).toBe('pg-0123456789abcdef0');
    }
  });
});
