/** The claim Nodesmith writes for a node it adopts from Karpenter. */
import { describe, expect, it } from 'vitest';
import { adoptedClaimRecord } from '../../../functions/domain/adoption/adopted-claim-record.ts';
import { type InstanceType, instanceTypeLabels } from '../../../functions/domain/instance-type.ts';
import type { NodeClaim } from '../../../functions/domain/node-claim.ts';
import { parseResources } from '../../../functions/domain/resources.ts';
import { aNode, anInstanceType } from '../../support/builders.ts';

const CREATED = '2026-10-01T08:00:00.000Z';
const NOW = new Date('2026-11-26T12:00:00Z');

const NODE_CLAIM: NodeClaim = {
  metadata: {
    name: 'general-k1x7q',
    creationTimestamp: CREATED,
    labels: {
      'karpenter.sh/nodepool': 'general',
      'karpenter.k8s.aws/ec2nodeclass': 'default',
      'node.kubernetes.io/instance-type': 'm.xlarge',
      team: 'shop',
    },
  },
  spec: {
    requirements: [
      {
        key: 'node.kubernetes.io/instance-type',
        operator: 'In',
        values: ['m.xlarge', 'm.2xlarge'],
      },
    ],
    taints: [{ key: 'dedicated', value: 'shop', effect: 'NoSchedule' }],
    resources: { requests: { cpu: '3', memory: '4Gi', pods: '3' } },
    nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
  },
  status: {
    providerID: 'aws:///us-east-1b/i-0ca0000000000001',
    nodeName: 'ip-10-1-0-1.ec2.internal',
    imageID: 'ami-0karpenter',
    capacity: { cpu: '4', memory: '16Gi', pods: '58' },
    allocatable: { cpu: '3920m', memory: '14Gi', pods: '58' },
    conditions: [{ type: 'Initialized', status: 'True' }],
  },
};

const INSTANCE = {
  instanceId: 'i-0ca0000000000001',
  providerID: 'aws:///us-east-1b/i-0ca0000000000001',
  instanceType: 'm.xlarge',
  zone: 'us-east-1b',
  capacityType: 'on-demand' as const,
  network: { subnetId: 'subnet-0karpenter', securityGroupIds: ['sg-0nodes'] },
};

const TYPES = [
  anInstanceType({ name: 'm.xlarge', cpu: 4, memoryGiB: 16, price: 0.2, zones: ['us-east-1b'] }),
];

describe('adoptedClaimRecord', () => {
  const candidate = {
    nodeClaim: NODE_CLAIM,
    node: aNode({ name: 'ip-10-1-0-1.ec2.internal' }),
    instanceId: INSTANCE.instanceId,
  };

  it("is an Initialized claim of the NodeClaim's pool, class and spec, priced from the pool's catalog", () => {
    const record = adoptedClaimRecord(candidate, INSTANCE, TYPES, NOW);
    expect(record).toMatchObject({
      name: 'general-k1x7q',
      nodePool: 'general',
      nodeClass: 'default',
      requirements: NODE_CLAIM.spec.requirements,
      instanceTypeOptions: ['m.xlarge'],
      offering: {
        instanceType: 'm.xlarge',
        zone: 'us-east-1b',
        capacityType: 'on-demand',
        pricePerHour: 0.2,
      },
      taints: NODE_CLAIM.spec.taints,
      requests: parseResources({ cpu: '3', memory: '4Gi', pods: '3' }),
      capacity: parseResources({ cpu: '4', memory: '16Gi', pods: '58' }),
      allocatable: parseResources({ cpu: '3920m', memory: '14Gi', pods: '58' }),
      instanceId: 'i-0ca0000000000001',
      providerID: 'aws:///us-east-1b/i-0ca0000000000001',
      imageId: 'ami-0karpenter',
      network: { subnetId: 'subnet-0karpenter', securityGroupIds: ['sg-0nodes'] },
      nodeName: 'ip-10-1-0-1.ec2.internal',
      phase: 'Initialized',
      adoptedAt: NOW.toISOString(),
    });
  });

  it("counts its age from Karpenter's creation time, so expireAfter ends where Karpenter's would", () => {
    const record = adoptedClaimRecord(candidate, INSTANCE, TYPES, NOW);
    expect(record.timestamps).toEqual({
      Pending: CREATED,
      Launched: CREATED,
      Registered: CREATED,
      Initialized: CREATED,
    });
  });

  it('labels the node with what EC2 says of the instance and its type over what the NodeClaim said, keeping custom labels', () => {
    const spot = { ...INSTANCE, capacityType: 'spot' as const, zone: 'us-east-1c' };
    const record = adoptedClaimRecord(candidate, spot, TYPES, NOW);
    expect(record.labels).toEqual({
      ...instanceTypeLabels(TYPES[0] as InstanceType),
      'karpenter.sh/nodepool': 'general',
      'karpenter.k8s.aws/ec2nodeclass': 'default',
      'node.kubernetes.io/instance-type': 'm.xlarge',
      'topology.kubernetes.io/zone': 'us-east-1c',
      'karpenter.sh/capacity-type': 'spot',
      team: 'shop',
    });
  });

  it("falls back to the type's capacity when the NodeClaim has no status capacity, the cheapest offering when its own is not offered, and 0 for a type the catalog lacks", () => {
    const bare: NodeClaim = { ...NODE_CLAIM, status: { providerID: INSTANCE.providerID } };
    const record = adoptedClaimRecord({ ...candidate, nodeClaim: bare }, INSTANCE, TYPES, NOW);
    expect(record.capacity).toEqual(TYPES[0]?.capacity);
    expect(record.allocatable).toEqual(TYPES[0]?.allocatable);
    const unknown = adoptedClaimRecord(
      candidate,
      { ...INSTANCE, instanceType: 'x.metal' },
      TYPES,
      NOW,
    );
    expect(unknown.offering.pricePerHour).toBe(0);
    const elsewhere = adoptedClaimRecord(
      candidate,
      { ...INSTANCE, zone: 'us-east-1c', capacityType: 'spot' },
      TYPES,
      NOW,
    );
    expect(elsewhere.offering.pricePerHour).toBeCloseTo(0.08);
  });
});
