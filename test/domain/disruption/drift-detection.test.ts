import { describe, expect, it } from 'vitest';
import type { CapacityReservation } from '../../../functions/domain/capacity-reservation.ts';
import { driftOf } from '../../../functions/domain/disruption/drift-detection.ts';
import { computeNodeClassHash } from '../../../functions/domain/disruption/node-class-hash.ts';
import {
  computeTemplateHash,
  NODEPOOL_HASH_VERSION,
  templateHash,
} from '../../../functions/domain/disruption/template-hash.ts';
import type { InstanceNetwork } from '../../../functions/domain/instance-network.ts';
import { Label } from '../../../functions/domain/labels.ts';
import type { EC2NodeClass } from '../../../functions/domain/node-class.ts';
import type { NodePool } from '../../../functions/domain/node-pool.ts';
import { aCatalog, aDisruptionPool, aPoolNode } from '../../support/disruption-builders.ts';

const HOUR = 3_600_000;

function withLabels(pool: NodePool, labels: Record<string, string>): NodePool {
  return {
    ...pool,
    spec: { ...pool.spec, template: { ...pool.spec.template, metadata: { labels } } },
  };
}

function stamped(pool: NodePool) {
  const { hash, version } = computeTemplateHash(pool);
  return { 'karpenter.sh/nodepool-hash': hash, 'karpenter.sh/nodepool-hash-version': version };
}

describe('template hash', () => {
  const pool = aDisruptionPool({});

  it('ignores requirements, budgets and the order of lists', () => {
    const other: NodePool = {
      ...pool,
      spec: {
        ...pool.spec,
        disruption: { budgets: [{ nodes: '0' }] },
        template: {
          ...pool.spec.template,
          spec: { ...pool.spec.template.spec, requirements: [] },
        },
      },
    };
    expect(computeTemplateHash(other)).toEqual(computeTemplateHash(pool));
    const taints = (order: number[]) =>
      aDisruptionPool(
        {},
        {
          template: {
            taints: order.map((i) => ({ key: `k${i}`, effect: 'NoSchedule' as const })),
          },
        },
      );
    expect(computeTemplateHash(taints([1, 2]))).toEqual(computeTemplateHash(taints([2, 1])));
  });

  it('changes with labels, taints and expireAfter', () => {
    const base = computeTemplateHash(pool).hash;
    expect(computeTemplateHash(withLabels(pool, { team: 'a' })).hash).not.toBe(base);
    expect(
      computeTemplateHash(aDisruptionPool({}, { template: { expireAfter: '24h' } })).hash,
    ).not.toBe(base);
  });

  it('uses the hash a NodePool carries from Karpenter', () => {
    const carried: NodePool = {
      ...pool,
      metadata: {
        name: 'default',
        annotations: {
          'karpenter.sh/nodepool-hash': '123',
          'karpenter.sh/nodepool-hash-version': 'v3',
        },
      },
    };
    expect(templateHash(carried)).toEqual({ hash: '123', version: 'v3' });
    expect(templateHash(pool).version).toBe(NODEPOOL_HASH_VERSION);
  });
});

describe('drift detection', () => {
  const catalog = aCatalog();
  const pool = aDisruptionPool({});

  function drift(options: {
    pool?: NodePool;
    claimAnnotations?: Record<string, string>;
    labels?: Record<string, string>;
    ageMs?: number;
    nodeClass?: EC2NodeClass;
    imageID?: string;
    network?: InstanceNetwork;
  }) {
    const { node, nodeClaim } = aPoolNode({
      name: 'n1',
      claimAnnotations: options.claimAnnotations ?? stamped(pool),
      ...(options.labels === undefined ? {} : { labels: options.labels }),
      ...(options.imageID === undefined ? {} : { imageID: options.imageID }),
    });
    return driftOf({
      pool: options.pool ?? pool,
      labels: node.labels,
      claim: nodeClaim,
      instanceTypes: catalog,
      ageMs: options.ageMs ?? 2 * HOUR,
      ...(options.nodeClass === undefined ? {} : { nodeClass: options.nodeClass }),
      ...(options.network === undefined ? {} : { network: options.network }),
    });
  }

  it('finds nothing on a node made from the current template', () => {
    expect(drift({})).toBeUndefined();
  });

  it('finds a changed template (NodePoolDrifted)', () => {
    expect(drift({ pool: withLabels(pool, { team: 'b' }) })?.reason).toBe('NodePoolDrifted');
  });

  it('does not call a claim of another hash version drifted', () => {
    const old = { 'karpenter.sh/nodepool-hash': '1', 'karpenter.sh/nodepool-hash-version': 'v2' };
    expect(drift({ claimAnnotations: old })).toBeUndefined();
  });

  it('finds labels that no longer meet the requirements (RequirementsDrifted)', () => {
    const spotOnly = aDisruptionPool(
      {},
      {
        template: { requirements: [{ key: Label.capacityType, operator: 'In', values: ['spot'] }] },
      },
    );
    const found = drift({ pool: spotOnly, claimAnnotations: stamped(spotOnly) });
    expect(found?.reason).toBe('RequirementsDrifted');
  });

  it('finds an instance type gone from the catalog, but only after an hour', () => {
    expect(drift({ labels: { [Label.instanceType]: 'gone.large' } })?.reason).toBe(
      'InstanceTypeNotFound',
    );
    expect(
      drift({ labels: { [Label.instanceType]: 'gone.large' }, ageMs: HOUR / 2 }),
    ).toBeUndefined();
  });

  it('judges no catalog for a pool that has none, its EC2NodeClass missing, as Karpenter does not', () => {
    // Prepare
    const { node, nodeClaim } = aPoolNode({
      name: 'n1',
      claimAnnotations: stamped(pool),
      labels: { [Label.instanceType]: 'gone.large' },
    });

    // Act
    const found = driftOf({ pool, labels: node.labels, claim: nodeClaim, ageMs: 2 * HOUR });

    // Assess
    expect(found).toBeUndefined();
  });

  it('finds a node on an AMI its class no longer selects (AMIDrift)', () => {
    const nodeClass: EC2NodeClass = {
      metadata: { name: 'default' },
      spec: {},
      status: { amis: [{ id: 'ami-new' }] },
    };
    expect(drift({ nodeClass, imageID: 'ami-old' })?.reason).toBe('AMIDrift');
    expect(drift({ nodeClass, imageID: 'ami-new' })).toBeUndefined();
  });

  describe('a changed EC2NodeClass (NodeClassDrifted)', () => {
    const launchedWith: EC2NodeClass = {
      metadata: { name: 'default' },
      spec: {
        amiSelectorTerms: [{ alias: 'al2023@latest' }],
        role: 'KarpenterNodeRole-shop',
        userData: 'echo hello',
        tags: { team: 'shop' },
        subnetSelectorTerms: [{ tags: { 'karpenter.sh/discovery': 'shop' } }],
      },
    };
    const withClassHash = (nodeClass: EC2NodeClass) => {
      const { hash, version } = computeNodeClassHash(nodeClass);
      return {
        ...stamped(pool),
        'karpenter.k8s.aws/ec2nodeclass-hash': hash,
        'karpenter.k8s.aws/ec2nodeclass-hash-version': version,
      };
    };
    const claimAnnotations = withClassHash(launchedWith);
    const changed = (spec: Partial<EC2NodeClass['spec']>): EC2NodeClass => ({
      ...launchedWith,
      spec: { ...launchedWith.spec, ...spec },
    });

    it('finds changed user data, tags, block devices and connection tracking', () => {
      for (const spec of [
        { userData: 'echo bye' },
        { tags: { team: 'payments' } },
        { blockDeviceMappings: [{ deviceName: '/dev/xvda', ebs: { volumeSize: '100Gi' } }] },
        { connectionTracking: { udpTimeout: 45 } },
      ]) {
        const found = drift({ nodeClass: changed(spec), claimAnnotations });
        expect(found?.reason, JSON.stringify(spec)).toBe('NodeClassDrifted');
        expect(found?.message).toBe('EC2NodeClass default changed since the node was launched');
      }
    });

    it('leaves selector terms to the drift of what they resolve to', () => {
      const reselected = changed({
        amiSelectorTerms: [{ alias: 'al2023@v20260301' }],
        subnetSelectorTerms: [{ id: 'subnet-0a1b2c3d' }],
        securityGroupSelectorTerms: [{ name: 'nodes' }],
        capacityReservationSelectorTerms: [{ id: 'cr-0123456789abcdef0' }],
      });
      expect(drift({ nodeClass: reselected, claimAnnotations })).toBeUndefined();
    });

    // aws: pkg/apis/v1/ec2nodeclass.go, IPPrefixCount `hash:"ignore"`
    it('leaves the IPv4 prefix count out, so changing it drifts nothing', () => {
      expect(drift({ nodeClass: changed({ ipPrefixCount: 4 }), claimAnnotations })).toBe(undefined);
    });

    it('hashes the AMI family as resolved, so naming the implied family changes nothing', () => {
      expect(drift({ nodeClass: changed({ amiFamily: 'AL2023' }), claimAnnotations })).toBe(
        undefined,
      );
    });

    it('compares the hash a class carries from Karpenter, and only within one version', () => {
      const karpenter = {
        ...stamped(pool),
        'karpenter.k8s.aws/ec2nodeclass-hash': '11',
        'karpenter.k8s.aws/ec2nodeclass-hash-version': 'v4',
      };
      const annotated = (hash: string, version: string): EC2NodeClass => ({
        ...launchedWith,
        metadata: {
          name: 'default',
          annotations: {
            'karpenter.k8s.aws/ec2nodeclass-hash': hash,
            'karpenter.k8s.aws/ec2nodeclass-hash-version': version,
          },
        },
      });
      expect(drift({ nodeClass: annotated('11', 'v4'), claimAnnotations: karpenter })).toBe(
        undefined,
      );
      expect(drift({ nodeClass: annotated('12', 'v4'), claimAnnotations: karpenter })?.reason).toBe(
        'NodeClassDrifted',
      );
      expect(drift({ nodeClass: annotated('12', 'v5'), claimAnnotations: karpenter })).toBe(
        undefined,
      );
    });
  });

  const aStatusReservation = (id: string): CapacityReservation => ({
    id,
    instanceType: 'm5.large',
    availabilityZone: 'zone-1',
    ownerID: '012345678901',
    instanceMatchCriteria: 'targeted',
    reservationType: 'default',
    state: 'active',
  });

  // Ported from aws: pkg/cloudprovider/suite_test.go, "NodeClaim Drift": the class resolves two
  // subnets and one security group, and the instance was launched into the first subnet with it.
  describe('a class that resolves to other subnets or security groups', () => {
    const resolved: EC2NodeClass = {
      metadata: { name: 'default' },
      spec: {},
      status: {
        subnets: [
          { id: 'subnet-valid-1', zone: 'zone-1' },
          { id: 'subnet-valid-2', zone: 'zone-2' },
        ],
        securityGroups: [{ id: 'sg-valid', name: 'test-securitygroup' }],
        amis: [{ id: 'ami-amd' }],
      },
    };
    const launched: InstanceNetwork = {
      subnetId: 'subnet-valid-1',
      securityGroupIds: ['sg-valid'],
    };
    const withStatus = (status: Partial<NonNullable<EC2NodeClass['status']>>): EC2NodeClass => ({
      ...resolved,
      status: { ...resolved.status, ...status },
    });

    it.each([
      { case: 'the NodeClaim is valid', nodeClass: resolved, network: launched, reason: undefined },
      {
        case: 'the subnet is not valid',
        nodeClass: resolved,
        network: { ...launched, subnetId: 'subnet-other' },
        reason: 'SubnetDrift',
      },
      {
        case: "the instance's security groups do not match the discovered ones",
        nodeClass: resolved,
        network: { ...launched, securityGroupIds: ['sg-other'] },
        reason: 'SecurityGroupDrift',
      },
      {
        case: 'the instance has more security groups than discovered',
        nodeClass: resolved,
        network: { ...launched, securityGroupIds: ['sg-other', 'sg-valid'] },
        reason: 'SecurityGroupDrift',
      },
      {
        case: 'more security groups are discovered than the instance has',
        nodeClass: withStatus({ securityGroups: [{ id: 'sg-valid' }, { id: 'sg-other' }] }),
        network: launched,
        reason: 'SecurityGroupDrift',
      },
      {
        case: 'the same security groups are listed in another order',
        nodeClass: withStatus({ securityGroups: [{ id: 'sg-b' }, { id: 'sg-a' }] }),
        network: { ...launched, securityGroupIds: ['sg-a', 'sg-b'] },
        reason: undefined,
      },
      // Karpenter returns an error and decides nothing when the status has none.
      {
        case: 'the class has no subnets resolved',
        nodeClass: withStatus({ subnets: [] }),
        network: { ...launched, subnetId: 'subnet-other' },
        reason: undefined,
      },
      {
        case: 'the class has no security groups resolved',
        nodeClass: withStatus({ securityGroups: [] }),
        network: { ...launched, securityGroupIds: ['sg-other'] },
        reason: undefined,
      },
      // "Capacity Reservation Drift" in the same suite.
      {
        case: 'the instance is in a reservation the class still selects',
        nodeClass: withStatus({ capacityReservations: [aStatusReservation('cr-valid')] }),
        network: { ...launched, capacityReservationId: 'cr-valid' },
        reason: undefined,
      },
      {
        case: 'the instance is in a reservation the class no longer selects',
        nodeClass: withStatus({ capacityReservations: [aStatusReservation('cr-valid')] }),
        network: { ...launched, capacityReservationId: 'cr-gone' },
        reason: 'CapacityReservationDrift',
      },
      {
        case: 'the class selects no reservation any more',
        nodeClass: withStatus({ capacityReservations: [] }),
        network: { ...launched, capacityReservationId: 'cr-gone' },
        reason: 'CapacityReservationDrift',
      },
      {
        case: 'the instance is in no reservation',
        nodeClass: withStatus({ capacityReservations: [] }),
        network: launched,
        reason: undefined,
      },
      {
        case: 'the class has its reservations not resolved',
        nodeClass: resolved,
        network: { ...launched, capacityReservationId: 'cr-gone' },
        reason: undefined,
      },
    ])('when $case: $reason', ({ nodeClass, network, reason }) => {
      // Act
      const found = drift({ nodeClass, imageID: 'ami-amd', network });

      // Assess
      expect(found?.reason).toBe(reason);
    });

    // aws: pkg/cloudprovider/drift.go, `isPlacementGroupDrifted`
    const GROUP = { id: 'pg-0123456789abcdef0', name: 'training', strategy: 'cluster' } as const;
    const inGroup = { ...resolved, spec: { placementGroupSelector: { name: 'training' } } };
    it.each([
      {
        case: 'the node is in the group the class resolves to',
        nodeClass: { ...inGroup, status: { ...inGroup.status, placementGroup: GROUP } },
        label: 'pg-0123456789abcdef0',
        reason: undefined,
      },
      {
        case: 'the class resolves to another group',
        nodeClass: { ...inGroup, status: { ...inGroup.status, placementGroup: GROUP } },
        label: 'pg-0aaaaaaaaaaaaaaaa',
        reason: 'PlacementGroupDrift',
      },
      {
        case: 'the class selects a group the node is not in',
        nodeClass: { ...inGroup, status: { ...inGroup.status, placementGroup: GROUP } },
        label: undefined,
        reason: 'PlacementGroupDrift',
      },
      {
        case: 'the class no longer selects a group',
        nodeClass: resolved,
        label: 'pg-0123456789abcdef0',
        reason: 'PlacementGroupDrift',
      },
      {
        case: 'the group is not known here, as for a class read from files',
        nodeClass: inGroup,
        label: 'pg-0aaaaaaaaaaaaaaaa',
        reason: undefined,
      },
    ])('when $case: $reason', ({ nodeClass, label, reason }) => {
      // Prepare
      const labels: Record<string, string> =
        label === undefined ? {} : { 'karpenter.k8s.aws/placement-group-id': label };

      // Act
      const found = drift({ nodeClass, imageID: 'ami-amd', network: launched, labels });

      // Assess
      expect(found?.reason).toBe(reason);
    });

    it('says which subnet and security groups the instance has and which the class selects', () => {
      // Prepare
      const network = { subnetId: 'subnet-old', securityGroupIds: ['sg-valid'] };

      // Act
      const subnet = drift({ nodeClass: resolved, imageID: 'ami-amd', network });
      const groups = drift({
        nodeClass: resolved,
        imageID: 'ami-amd',
        network: { ...launched, securityGroupIds: ['sg-z', 'sg-a'] },
      });

      // Assess
      expect(subnet?.message).toBe(
        'subnet subnet-old is no longer selected (now subnet-valid-1, subnet-valid-2)',
      );
      expect(groups?.message).toBe(
        'security groups sg-a, sg-z are no longer those selected (now sg-valid)',
      );
    });

    it('judges neither where the instance is not known, as a node read from files', () => {
      // Prepare
      const elsewhere = withStatus({ subnets: [{ id: 'subnet-new', zone: 'zone-1' }] });

      // Act
      const found = drift({ nodeClass: elsewhere, imageID: 'ami-amd' });

      // Assess
      expect(found).toBeUndefined();
    });

    it('reports the first of several reasons in Karpenter’s order: class, AMI, security groups, subnet', () => {
      // Prepare
      const { hash, version } = computeNodeClassHash(resolved);
      const claimAnnotations = {
        ...stamped(pool),
        'karpenter.k8s.aws/ec2nodeclass-hash': hash,
        'karpenter.k8s.aws/ec2nodeclass-hash-version': version,
      };
      const changedClass = { ...resolved, spec: { userData: 'echo changed' } };
      const everything = { subnetId: 'subnet-other', securityGroupIds: ['sg-other'] };
      const oldImage = { claimAnnotations, imageID: 'ami-old', network: everything };

      // Act
      const reasons = [
        drift({ ...oldImage, nodeClass: changedClass }),
        drift({ ...oldImage, nodeClass: resolved }),
        drift({ claimAnnotations, imageID: 'ami-amd', network: everything, nodeClass: resolved }),
        drift({
          claimAnnotations,
          imageID: 'ami-amd',
          network: { ...everything, securityGroupIds: ['sg-valid'] },
          nodeClass: resolved,
        }),
      ].map((found) => found?.reason);

      // Assess
      expect(reasons).toEqual([
        'NodeClassDrifted',
        'AMIDrift',
        'SecurityGroupDrift',
        'SubnetDrift',
      ]);
    });
  });
});
