import { describe, expect, it } from 'vitest';
import { amiFamilyOf, type EC2NodeClass } from '../../../functions/domain/node-class.ts';
import { parseEC2NodeClass } from '../../../functions/manifests/karpenter/node-class.ts';
import { aMinimalNodeClass } from '../../support/karpenter-documents.ts';
import { catchManifestError } from './catch-manifest-error.ts';
import {
  DOCS_NODE_CLASS,
  documentOf,
  documentsOf,
  EXAMPLE_NODE_CLASSES,
  REFERENCE_MANIFESTS,
} from './documents.ts';
import { withField } from './with-field.ts';

/**
 * The documented EC2NodeClass less what Karpenter's released CRD (v1.14.1) lacks
 * (`enclaveOptions`): every other field it sets is read and acted on.
 */
function documentedNodeClassAsRead(): Record<string, unknown> {
  const doc = documentOf(DOCS_NODE_CLASS) as Record<string, unknown>;
  return withField(doc, ['spec', 'enclaveOptions'], undefined);
}

describe('parseEC2NodeClass', () => {
  it('reads the reference EC2NodeClass with its disks and kubelet settings', () => {
    // Prepare
    const [, doc] = documentsOf(REFERENCE_MANIFESTS);

    // Act
    const nodeClass = parseEC2NodeClass(doc);

    // Assess
    expect(nodeClass.spec.role).toBe('KarpenterNodeRole-mycluster');
    expect(nodeClass.spec.blockDeviceMappings).toEqual([
      { deviceName: '/dev/xvda', ebs: { volumeSize: '50Gi', volumeType: 'gp3', encrypted: true } },
    ]);
    expect(nodeClass.spec.kubelet).toEqual({
      maxPods: 110,
      kubeReserved: { cpu: '200m' },
      evictionHard: { 'memory.available': '5%' },
    });
    expect(amiFamilyOf(nodeClass)).toBe('AL2023');
  });

  it('refuses the documented EC2NodeClass as written, at the field no released CRD has', () => {
    // Prepare
    const doc = documentOf(DOCS_NODE_CLASS);

    // Act
    const error = catchManifestError(() => parseEC2NodeClass(doc));

    // Assess
    expect(error.location.path).toBe('spec.enclaveOptions');
    expect(error.detail).toBe('unknown field "enclaveOptions"');
  });

  it('reads the documented EC2NodeClass with every spec field it acts on and its status', () => {
    // Prepare
    const doc = documentedNodeClassAsRead();

    // Act
    const nodeClass = parseEC2NodeClass(doc);

    // Assess
    expect(nodeClass.spec.kubelet?.evictionSoftGracePeriod).toEqual({
      'memory.available': '1m',
      'nodefs.available': '1m30s',
      'nodefs.inodesFree': '2m',
    });
    expect(nodeClass.spec.amiSelectorTerms).toHaveLength(4);
    expect(nodeClass.spec.blockDeviceMappings?.[0]?.ebs?.volumeInitializationRate).toBe(100);
    expect(nodeClass.spec.userData).toBe('echo "Hello world"\n');
    expect(nodeClass.spec.instanceStorePolicy).toBe('RAID0');
    expect(nodeClass.spec.placementGroupSelector).toEqual({ name: 'my-pg' });
    expect(nodeClass.spec.networkInterfaces).toEqual([
      { networkCardIndex: 0, deviceIndex: 0, interfaceType: 'interface' },
      { networkCardIndex: 0, deviceIndex: 1, interfaceType: 'interface' },
    ]);
    expect(nodeClass.spec.connectionTracking).toEqual({
      tcpEstablishedTimeout: 300,
      udpStreamTimeout: 120,
      udpTimeout: 45,
    });
    expect(nodeClass.status?.subnets?.map((subnet) => subnet.zone)).toEqual([
      'us-east-2b',
      'us-east-2c',
      'us-east-2a',
    ]);
    expect(nodeClass.status?.amis?.[1]).toMatchObject({
      deprecated: true,
      name: 'custom-ami-arm64',
    });
    expect(nodeClass.status?.instanceProfile).toBe('my-cluster-0123456778901234567789');
    expect(nodeClass.status?.conditions?.map((condition) => condition.type)).toContain('Ready');
  });

  it('reads the documented capacity reservation selector terms', () => {
    // Prepare
    const doc = documentedNodeClassAsRead();

    // Act
    const nodeClass = parseEC2NodeClass(doc);

    // Assess
    expect(nodeClass.spec.capacityReservationSelectorTerms).toEqual([
      { tags: { 'karpenter.sh/discovery': 'my-cluster' } },
      { id: 'cr-123' },
      { instanceMatchCriteria: 'open' },
    ]);
  });

  it('keeps the capacity reservations Karpenter resolved and defaults their type and state', () => {
    // Prepare
    const doc = documentedNodeClassAsRead();

    // Act
    const nodeClass = parseEC2NodeClass(doc);

    // Assess
    expect(nodeClass.status?.capacityReservations).toEqual([
      {
        availabilityZone: 'us-west-2a',
        id: 'cr-01234567890123456',
        instanceMatchCriteria: 'targeted',
        instanceType: 'g6.48xlarge',
        interruptible: false,
        ownerID: '012345678901',
        reservationType: 'capacity-block',
        state: 'expiring',
      },
      {
        availabilityZone: 'us-west-2c',
        id: 'cr-12345678901234567',
        instanceMatchCriteria: 'open',
        instanceType: 'g6.48xlarge',
        ownerID: '98765432109',
        reservationType: 'default',
        state: 'active',
      },
    ]);
  });

  it('reads the examples with several disks and a custom AMI, and refuses security groups scoped by a VPC no released CRD has', () => {
    // Prepare
    const [ebsDoc, vpcDoc, ubuntuDoc] = documentsOf(EXAMPLE_NODE_CLASSES);

    // Act
    const [ebs, ubuntu] = [ebsDoc, ubuntuDoc].map(parseEC2NodeClass);
    const vpc = catchManifestError(() => parseEC2NodeClass(vpcDoc));

    // Assess
    expect(ebs?.spec.blockDeviceMappings?.map((mapping) => mapping.ebs?.volumeSize)).toEqual([
      '20Gi',
      '100Gi',
      '2000Gi',
    ]);
    expect(vpc.location.path).toBe('spec.securityGroupSelectorTerms[0].vpcID');
    expect(vpc.detail).toBe('unknown field "vpcID"');
    expect(ubuntu?.spec.amiFamily).toBe('Custom');
    expect(ubuntu?.spec.subnetSelectorTerms[1]).toEqual({ tags: { MyTag: '' } });
    expect(ubuntu?.spec.blockDeviceMappings?.[0]?.rootVolume).toBe(true);
  });

  it.each([
    {
      name: 'defaults instance metadata to IMDSv2 with a hop limit of 1',
      given: undefined,
      hops: 1,
    },
    {
      name: 'fills in the metadata options a partial block leaves out',
      given: { httpPutResponseHopLimit: 2 },
      hops: 2,
    },
  ])('$name', ({ given, hops }) => {
    // Prepare
    const doc =
      given === undefined
        ? aMinimalNodeClass()
        : withField(aMinimalNodeClass(), ['spec', 'metadataOptions'], given);

    // Act
    const nodeClass = parseEC2NodeClass(doc);

    // Assess
    expect(nodeClass.spec.metadataOptions).toEqual({
      httpEndpoint: 'enabled',
      httpProtocolIPv6: 'disabled',
      httpPutResponseHopLimit: hops,
      httpTokens: 'required',
    });
  });

  it('accepts an instance profile instead of a role', () => {
    // Prepare
    const withoutRole = withField(aMinimalNodeClass(), ['spec', 'role'], undefined);
    const doc = withField(withoutRole, ['spec', 'instanceProfile'], 'KarpenterNodeInstanceProfile');

    // Act
    const nodeClass = parseEC2NodeClass(doc);

    // Assess
    expect(nodeClass.spec.instanceProfile).toBe('KarpenterNodeInstanceProfile');
    expect(nodeClass.spec.role).toBeUndefined();
  });

  it('accepts Custom as the AMI family of an aliased AMI and pinned versions', () => {
    // Prepare
    const aliased = withField(
      aMinimalNodeClass(),
      ['spec', 'amiSelectorTerms'],
      [{ alias: 'bottlerocket@v1.20.4' }],
    );
    const doc = withField(aliased, ['spec', 'amiFamily'], 'Custom');

    // Act
    const nodeClass = parseEC2NodeClass(doc);

    // Assess
    expect(amiFamilyOf(nodeClass)).toBe('Custom');
  });

  it.each([
    ['the al2 alias', ['spec', 'amiSelectorTerms'], [{ alias: 'al2@v20250915' }]],
    ['amiFamily AL2 with AMIs by id', ['spec', 'amiSelectorTerms'], [{ id: 'ami-123' }]],
  ])('accepts Amazon Linux 2 by %s, as Karpenter v1 does', (what, path, terms) => {
    // Prepare
    const selected = withField(aMinimalNodeClass(), path, terms);
    const doc = what.startsWith('amiFamily')
      ? withField(selected, ['spec', 'amiFamily'], 'AL2')
      : selected;

    // Act
    const nodeClass = parseEC2NodeClass(doc);

    // Assess
    expect(amiFamilyOf(nodeClass)).toBe('AL2');
  });

  it('accepts windows2025 aliases', () => {
    // Prepare
    const doc = withField(
      aMinimalNodeClass(),
      ['spec', 'amiSelectorTerms'],
      [{ alias: 'windows2025@latest' }],
    );

    // Act
    const nodeClass: EC2NodeClass = parseEC2NodeClass(doc);

    // Assess
    expect(amiFamilyOf(nodeClass)).toBe('Windows2025');
  });
});
