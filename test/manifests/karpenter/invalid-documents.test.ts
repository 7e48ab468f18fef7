import { describe, expect, it } from 'vitest';
import { parseNodeClaim } from '../../../functions/manifests/karpenter/node-claim.ts';
import { parseEC2NodeClass } from '../../../functions/manifests/karpenter/node-class.ts';
import { parseNodePool } from '../../../functions/manifests/karpenter/node-pool.ts';
import {
  aMinimalNodeClaim,
  aMinimalNodeClass,
  aMinimalNodePool,
} from '../../support/karpenter-documents.ts';
import { catchManifestError } from './catch-manifest-error.ts';
import { withField } from './with-field.ts';

type Path = readonly (string | number)[];

interface InvalidCase {
  readonly name: string;
  readonly parse: (doc: unknown) => unknown;
  readonly doc: Record<string, unknown>;
  readonly path: string;
  /** Part of the detail that tells the user what is wrong and what is allowed. */
  readonly detail: string;
}

const TEMPLATE_SPEC = ['spec', 'template', 'spec'] as const;
const REQUIREMENTS = [...TEMPLATE_SPEC, 'requirements'] as const;
const DISRUPTION = ['spec', 'disruption'] as const;

function pool(name: string, path: Path, value: unknown, expected: [string, string]): InvalidCase {
  const doc = withField(aMinimalNodePool(), path, value);
  return { name, parse: parseNodePool, doc, path: expected[0], detail: expected[1] };
}

function nodeClass(
  name: string,
  path: Path,
  value: unknown,
  expected: [string, string],
): InvalidCase {
  const doc = withField(aMinimalNodeClass(), path, value);
  return { name, parse: parseEC2NodeClass, doc, path: expected[0], detail: expected[1] };
}

function claim(name: string, path: Path, value: unknown, expected: [string, string]): InvalidCase {
  const doc = withField(aMinimalNodeClaim(), path, value);
  return { name, parse: parseNodeClaim, doc, path: expected[0], detail: expected[1] };
}

function requirement(key: string, operator: string, values?: string[], minValues?: number) {
  return [{ key, operator, values, minValues }];
}

const PRIMARY = { networkCardIndex: 0, deviceIndex: 0, interfaceType: 'interface' } as const;
const DISTINCT_SLOTS =
  'networkInterfaces must not have duplicate networkCardIndex and deviceIndex pairs, and can have at most one efa device per network card';

const manyRequirements = Array.from({ length: 101 }, (_, index) => ({
  key: `example.com/label-${index}`,
  operator: 'Exists',
}));
const manySubnetTerms = Array.from({ length: 31 }, (_, index) => ({ id: `subnet-${index}` }));
const budget = { nodes: '10%' };

const NODE_POOL_CASES: readonly InvalidCase[] = [
  pool('a v1beta1 NodePool', ['apiVersion'], 'karpenter.sh/v1beta1', [
    'apiVersion',
    'apiVersion must be karpenter.sh/v1, got "karpenter.sh/v1beta1"',
  ]),
  pool('another kind', ['kind'], 'Provisioner', [
    'kind',
    'kind must be NodePool, got "Provisioner"',
  ]),
  pool('a v1beta1 field left in the template', [...TEMPLATE_SPEC, 'kubelet'], { maxPods: 10 }, [
    'spec.template.spec.kubelet',
    'unknown field "kubelet"',
  ]),
  pool('an unknown top-level field', ['spex'], {}, ['spex', 'unknown field "spex"']),
  pool('a name that is not a DNS name', ['metadata', 'name'], 'Default_Pool', [
    'metadata.name',
    'is not a lowercase DNS-1123 name',
  ]),
  pool(
    'an operator Karpenter does not know',
    REQUIREMENTS,
    requirement('kubernetes.io/arch', 'Equals', ['amd64']),
    [
      'spec.template.spec.requirements[0].operator',
      'operator "Equals" is not one of In, NotIn, Exists, DoesNotExist, Gt, Lt, Gte, Lte',
    ],
  ),
  pool(
    'a requirement left empty in a YAML list',
    REQUIREMENTS,
    [null],
    ['spec.template.spec.requirements[0]', 'must be a mapping, got null'],
  ),
  pool('In without values', REQUIREMENTS, requirement('kubernetes.io/arch', 'In', []), [
    'spec.template.spec.requirements[0].values',
    'operator In needs at least one value',
  ]),
  pool(
    'Gt with two values',
    REQUIREMENTS,
    requirement('karpenter.k8s.aws/instance-cpu', 'Gt', ['2', '4']),
    [
      'spec.template.spec.requirements[0].values',
      'operator Gt needs exactly one non-negative integer value, got [2, 4]',
    ],
  ),
  pool(
    'Lte with a fraction',
    REQUIREMENTS,
    requirement('karpenter.k8s.aws/instance-cpu', 'Lte', ['1.5']),
    [
      'spec.template.spec.requirements[0].values',
      'operator Lte needs exactly one non-negative integer value',
    ],
  ),
  pool(
    'minValues above 50',
    REQUIREMENTS,
    requirement('karpenter.k8s.aws/instance-family', 'Exists', undefined, 51),
    ['spec.template.spec.requirements[0].minValues', 'must be at most 50, got 51'],
  ),
  pool(
    'minValues above the In values listed',
    REQUIREMENTS,
    requirement('karpenter.k8s.aws/instance-category', 'In', ['c', 'm'], 3),
    [
      'spec.template.spec.requirements[0].minValues',
      'minValues 3 is more than the 2 values listed',
    ],
  ),
  pool('more than 100 requirements', REQUIREMENTS, manyRequirements, [
    'spec.template.spec.requirements',
    'must have at most 100 items, got 101',
  ]),
  pool('a hostname requirement', REQUIREMENTS, requirement('kubernetes.io/hostname', 'Exists'), [
    'spec.template.spec.requirements[0].key',
    'label kubernetes.io/hostname is restricted',
  ]),
  pool(
    'a made-up key in the karpenter.sh domain',
    REQUIREMENTS,
    requirement('karpenter.sh/team', 'Exists'),
    [
      'spec.template.spec.requirements[0].key',
      'label karpenter.sh/team is restricted; specify a well known label',
    ],
  ),
  pool(
    'a requirement on the NodePool label',
    REQUIREMENTS,
    requirement('karpenter.sh/nodepool', 'In', ['other']),
    ['spec.template.spec.requirements[0].key', 'label karpenter.sh/nodepool is restricted'],
  ),
  pool(
    'a key that is not a qualified name',
    REQUIREMENTS,
    requirement('example.com/team/name', 'Exists'),
    ['spec.template.spec.requirements[0].key', 'is not a qualified name'],
  ),
  pool(
    'the NodePool label as a template label',
    ['spec', 'template', 'metadata', 'labels'],
    { 'karpenter.sh/nodepool': 'x' },
    [
      'spec.template.metadata.labels[karpenter.sh/nodepool]',
      'label karpenter.sh/nodepool is restricted',
    ],
  ),
  pool(
    'a hostname template label',
    ['spec', 'template', 'metadata', 'labels'],
    { 'kubernetes.io/hostname': 'a' },
    [
      'spec.template.metadata.labels[kubernetes.io/hostname]',
      'label kubernetes.io/hostname is restricted',
    ],
  ),
  pool(
    'a template label value that is not a label value',
    ['spec', 'template', 'metadata', 'labels'],
    { team: 'a b' },
    ['spec.template.metadata.labels.team', '"a b" is not a label value'],
  ),
  pool(
    'an unknown taint effect',
    [...TEMPLATE_SPEC, 'taints'],
    [{ key: 'dedicated', effect: 'NoRun' }],
    [
      'spec.template.spec.taints[0].effect',
      'effect "NoRun" is not one of NoSchedule, PreferNoSchedule, NoExecute',
    ],
  ),
  pool(
    'a taint repeated as a startup taint',
    [...TEMPLATE_SPEC],
    {
      ...aMinimalNodePool().spec.template.spec,
      taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }],
      startupTaints: [{ key: 'dedicated', effect: 'NoSchedule' }],
    },
    ['spec.template.spec.startupTaints[0]', 'duplicate taint key/effect pair dedicated:NoSchedule'],
  ),
  pool('a weight of 0', ['spec', 'weight'], 0, ['spec.weight', 'must be at least 1, got 0']),
  pool('a weight above 100', ['spec', 'weight'], 101, [
    'spec.weight',
    'must be at most 100, got 101',
  ]),
  pool('a fractional weight', ['spec', 'weight'], 2.5, [
    'spec.weight',
    'must be an integer, got 2.5',
  ]),
  pool('an expiry in days', [...TEMPLATE_SPEC, 'expireAfter'], '30d', [
    'spec.template.spec.expireAfter',
    '"30d" is not a duration such as 720h or 1h30m, or Never',
  ]),
  pool(
    'a termination grace period of Never',
    [...TEMPLATE_SPEC, 'terminationGracePeriod'],
    'Never',
    ['spec.template.spec.terminationGracePeriod', '"Never" is not a duration'],
  ),
  pool(
    'a disruption block without consolidateAfter',
    DISRUPTION,
    { consolidationPolicy: 'WhenEmpty' },
    ['spec.disruption.consolidateAfter', 'required field "consolidateAfter" is missing'],
  ),
  pool(
    'the v1beta1 consolidation policy',
    DISRUPTION,
    { consolidateAfter: '0s', consolidationPolicy: 'WhenUnderutilized' },
    [
      'spec.disruption.consolidationPolicy',
      'consolidationPolicy "WhenUnderutilized" is not one of WhenEmpty, WhenEmptyOrUnderutilized, Balanced',
    ],
  ),
  pool(
    'more than 50 budgets',
    DISRUPTION,
    { consolidateAfter: '0s', budgets: Array(51).fill(budget) },
    ['spec.disruption.budgets', 'must have at most 50 items, got 51'],
  ),
  pool(
    'a budget above 100%',
    DISRUPTION,
    { consolidateAfter: '0s', budgets: [{ nodes: '110%' }] },
    [
      'spec.disruption.budgets[0].nodes',
      '"110%" is not a node count such as "5" or a percentage such as "10%"',
    ],
  ),
  pool(
    'an unquoted budget count',
    DISRUPTION,
    { consolidateAfter: '0s', budgets: [{ nodes: 0 }] },
    ['spec.disruption.budgets[0].nodes', 'must be a string, got 0; quote it'],
  ),
  pool(
    'a schedule without a duration',
    DISRUPTION,
    { consolidateAfter: '0s', budgets: [{ nodes: '0', schedule: '@daily' }] },
    [
      'spec.disruption.budgets[0].duration',
      'schedule and duration must be set together; duration is missing',
    ],
  ),
  pool(
    'a budget duration in seconds',
    DISRUPTION,
    { consolidateAfter: '0s', budgets: [{ nodes: '0', schedule: '@daily', duration: '30s' }] },
    ['spec.disruption.budgets[0].duration', '"30s" is not a duration in hours and minutes'],
  ),
  pool(
    'a schedule with six fields',
    DISRUPTION,
    {
      consolidateAfter: '0s',
      budgets: [{ nodes: '0', schedule: '0 0 9 * * mon', duration: '1h' }],
    },
    ['spec.disruption.budgets[0].schedule', 'is not a cron schedule of five fields'],
  ),
  pool(
    'an unknown budget reason',
    DISRUPTION,
    { consolidateAfter: '0s', budgets: [{ nodes: '0', reasons: ['Expired'] }] },
    [
      'spec.disruption.budgets[0].reasons[0]',
      'reasons "Expired" is not one of Underutilized, Empty, Drifted',
    ],
  ),
  pool(
    'a nodeClassRef without a group',
    [...TEMPLATE_SPEC, 'nodeClassRef'],
    { kind: 'EC2NodeClass', name: 'default' },
    ['spec.template.spec.nodeClassRef.group', 'required field "group" is missing'],
  ),
  pool('a nodeClassRef with an empty name', [...TEMPLATE_SPEC, 'nodeClassRef', 'name'], '', [
    'spec.template.spec.nodeClassRef.name',
    'name may not be empty',
  ]),
  pool('a limit that is not a quantity', ['spec', 'limits'], { cpu: 'lots' }, [
    'spec.limits.cpu',
    '"lots" is not a quantity',
  ]),
  pool('a fractional limit written as a YAML float', ['spec', 'limits'], { cpu: 0.5 }, [
    'spec.limits.cpu',
    'must be an integer or a quantity',
  ]),
  pool(
    'weight on a static NodePool',
    ['spec'],
    { ...aMinimalNodePool().spec, replicas: 3, weight: 10 },
    ['spec.weight', 'weight is not supported on a static NodePool'],
  ),
  pool(
    'a cpu limit on a static NodePool',
    ['spec'],
    { ...aMinimalNodePool().spec, replicas: 3, limits: { nodes: 5, cpu: 10 } },
    ['spec.limits.cpu', 'only limits.nodes is supported on a static NodePool'],
  ),
  pool(
    'a status condition with an unknown status',
    ['status'],
    { conditions: [{ type: 'Ready', status: 'Maybe' }] },
    ['status.conditions[0].status', 'status "Maybe" is not one of True, False, Unknown'],
  ),
];

const NODE_CLASS_CASES: readonly InvalidCase[] = [
  nodeClass('a v1beta1 EC2NodeClass', ['apiVersion'], 'karpenter.k8s.aws/v1beta1', [
    'apiVersion',
    'apiVersion must be karpenter.k8s.aws/v1',
  ]),
  nodeClass(
    'both role and instanceProfile',
    ['spec', 'instanceProfile'],
    'KarpenterNodeInstanceProfile',
    [
      'spec.instanceProfile',
      'role and instanceProfile are mutually exclusive; specify exactly one',
    ],
  ),
  nodeClass('neither role nor instanceProfile', ['spec', 'role'], undefined, [
    'spec.role',
    'specify exactly one of role or instanceProfile',
  ]),
  nodeClass('an empty role', ['spec', 'role'], '', ['spec.role', 'role may not be empty']),
  nodeClass(
    'an alias next to another AMI term',
    ['spec', 'amiSelectorTerms'],
    [{ alias: 'al2023@latest' }, { id: 'ami-123' }],
    ['spec.amiSelectorTerms[0].alias', 'alias must be the only amiSelectorTerm'],
  ),
  nodeClass(
    'an alias without a version',
    ['spec', 'amiSelectorTerms'],
    [{ alias: 'al2023' }],
    ['spec.amiSelectorTerms[0].alias', 'alias "al2023" must look like family@version'],
  ),
  nodeClass(
    'an alias of an unsupported family',
    ['spec', 'amiSelectorTerms'],
    [{ alias: 'ubuntu@latest' }],
    [
      'spec.amiSelectorTerms[0].alias',
      'alias family "ubuntu" is not one of al2, al2023, bottlerocket, windows2019, windows2022, windows2025',
    ],
  ),
  nodeClass(
    'a pinned windows alias',
    ['spec', 'amiSelectorTerms'],
    [{ alias: 'windows2022@v2024' }],
    ['spec.amiSelectorTerms[0].alias', 'windows aliases support only the version latest'],
  ),
  nodeClass(
    'an alias combined with tags in one term',
    ['spec', 'amiSelectorTerms'],
    [{ alias: 'al2023@latest', tags: { a: 'b' } }],
    ['spec.amiSelectorTerms[0].alias', 'alias cannot be combined with tags in the same term'],
  ),
  nodeClass(
    'no AMI terms',
    ['spec', 'amiSelectorTerms'],
    [],
    ['spec.amiSelectorTerms', 'amiSelectorTerms may not be empty'],
  ),
  nodeClass('an AMI family that contradicts the alias', ['spec', 'amiFamily'], 'Bottlerocket', [
    'spec.amiFamily',
    'amiFamily Bottlerocket does not match alias al2023@latest; use AL2023 or Custom',
  ]),
  nodeClass(
    'no AMI family and no alias',
    ['spec', 'amiSelectorTerms'],
    [{ name: 'my-ami' }],
    ['spec.amiFamily', 'amiFamily is required when no amiSelectorTerm uses an alias'],
  ),
  nodeClass('the dropped Ubuntu AMI family', ['spec', 'amiFamily'], 'Ubuntu', [
    'spec.amiFamily',
    'amiFamily "Ubuntu" is not one of AL2, AL2023, Bottlerocket, Custom, Windows2019, Windows2022, Windows2025',
  ]),
  nodeClass(
    'a subnet term with both id and tags',
    ['spec', 'subnetSelectorTerms'],
    [{ id: 'subnet-123', tags: { a: 'b' } }],
    ['spec.subnetSelectorTerms[0].id', 'id cannot be combined with tags in the same term'],
  ),
  nodeClass(
    'an empty subnet term',
    ['spec', 'subnetSelectorTerms'],
    [{}],
    ['spec.subnetSelectorTerms[0]', 'a selector term needs at least one of tags, id'],
  ),
  nodeClass(
    'no subnet terms',
    ['spec', 'subnetSelectorTerms'],
    [],
    ['spec.subnetSelectorTerms', 'subnetSelectorTerms may not be empty'],
  ),
  nodeClass('more than 30 subnet terms', ['spec', 'subnetSelectorTerms'], manySubnetTerms, [
    'spec.subnetSelectorTerms',
    'must have at most 30 items, got 31',
  ]),
  nodeClass(
    'a subnet id that is not one',
    ['spec', 'subnetSelectorTerms'],
    [{ id: 'sg-123' }],
    ['spec.subnetSelectorTerms[0].id', '"sg-123" is not a subnet id'],
  ),
  nodeClass(
    'a security group term with both name and tags',
    ['spec', 'securityGroupSelectorTerms'],
    [{ name: 'nodes', tags: { a: 'b' } }],
    [
      'spec.securityGroupSelectorTerms[0].name',
      'name cannot be combined with tags in the same term',
    ],
  ),
  nodeClass(
    'a capacity reservation id with an owner',
    ['spec', 'capacityReservationSelectorTerms'],
    [{ id: 'cr-123', ownerID: '012345678901' }],
    [
      'spec.capacityReservationSelectorTerms[0].id',
      'id cannot be combined with ownerID in the same term',
    ],
  ),
  nodeClass(
    'an owner id that lost its leading zero',
    ['spec', 'capacityReservationSelectorTerms'],
    [{ tags: { a: 'b' }, ownerID: '12345678901' }],
    ['spec.capacityReservationSelectorTerms[0].ownerID', 'is not a 12-digit AWS account id'],
  ),
  // aws: pkg/apis/crds/karpenter.k8s.aws_ec2nodeclasses.yaml, placementGroupSelector
  nodeClass(
    'a placement group by name and id',
    ['spec', 'placementGroupSelector'],
    { name: 'pg', id: 'pg-123' },
    ['spec.placementGroupSelector', "'name' and 'id' are mutually exclusive"],
  ),
  nodeClass('a placement group by neither name nor id', ['spec', 'placementGroupSelector'], {}, [
    'spec.placementGroupSelector',
    "expected at least one, got none, ['name', 'id']",
  ]),
  nodeClass('an empty placement group name', ['spec', 'placementGroupSelector'], { name: '' }, [
    'spec.placementGroupSelector.name',
    'name may not be empty',
  ]),
  nodeClass(
    'a placement group id without its prefix',
    ['spec', 'placementGroupSelector'],
    { id: '0123456789abcdef0' },
    [
      'spec.placementGroupSelector.id',
      '"0123456789abcdef0" is not a placement group id such as pg-0123456789abcdef0',
    ],
  ),
  nodeClass(
    'a tag Karpenter uses to find its instances',
    ['spec', 'tags'],
    { 'kubernetes.io/cluster/my-cluster': 'owned' },
    [
      'spec.tags[kubernetes.io/cluster/my-cluster]',
      'tag kubernetes.io/cluster/my-cluster is restricted',
    ],
  ),
  nodeClass('the NodeClaim tag', ['spec', 'tags'], { 'karpenter.sh/nodeclaim': 'x' }, [
    'spec.tags[karpenter.sh/nodeclaim]',
    'tag karpenter.sh/nodeclaim is restricted',
  ]),
  nodeClass(
    'an unknown IMDS token mode',
    ['spec', 'metadataOptions'],
    { httpTokens: 'sometimes' },
    ['spec.metadataOptions.httpTokens', 'httpTokens "sometimes" is not one of required, optional'],
  ),
  nodeClass('a hop limit above 64', ['spec', 'metadataOptions'], { httpPutResponseHopLimit: 65 }, [
    'spec.metadataOptions.httpPutResponseHopLimit',
    'must be at most 64, got 65',
  ]),
  nodeClass(
    'a volume size without a unit',
    ['spec', 'blockDeviceMappings'],
    [{ ebs: { volumeSize: '20' } }],
    [
      'spec.blockDeviceMappings[0].ebs.volumeSize',
      '"20" is not a volume size in whole Gi, G, Ti or T',
    ],
  ),
  nodeClass(
    'a volume larger than EBS allows',
    ['spec', 'blockDeviceMappings'],
    [{ ebs: { volumeSize: '100000Gi' } }],
    ['spec.blockDeviceMappings[0].ebs.volumeSize', 'at most 59000Gi'],
  ),
  nodeClass(
    'an unknown volume type',
    ['spec', 'blockDeviceMappings'],
    [{ ebs: { volumeSize: '20Gi', volumeType: 'gp4' } }],
    [
      'spec.blockDeviceMappings[0].ebs.volumeType',
      'volumeType "gp4" is not one of standard, io1, io2, gp2, sc1, st1, gp3',
    ],
  ),
  nodeClass(
    'a volume with neither size nor snapshot',
    ['spec', 'blockDeviceMappings'],
    [{ ebs: { volumeType: 'gp3' } }],
    ['spec.blockDeviceMappings[0].ebs.volumeSize', 'set volumeSize or snapshotID'],
  ),
  nodeClass(
    'two root volumes',
    ['spec', 'blockDeviceMappings'],
    [
      { deviceName: '/dev/xvda', rootVolume: true, ebs: { volumeSize: '20Gi' } },
      { deviceName: '/dev/xvdb', rootVolume: true, ebs: { volumeSize: '20Gi' } },
    ],
    [
      'spec.blockDeviceMappings[1].rootVolume',
      'only one block device mapping may be the root volume',
    ],
  ),
  nodeClass(
    'an unknown eviction signal',
    ['spec', 'kubelet'],
    { evictionHard: { 'memory.free': '5%' } },
    [
      'spec.kubelet.evictionHard[memory.free]',
      '"memory.free" is not a valid key for evictionHard; valid keys are memory.available, nodefs.available',
    ],
  ),
  nodeClass(
    'a soft eviction threshold without a grace period',
    ['spec', 'kubelet'],
    { evictionSoft: { 'memory.available': '500Mi' } },
    [
      'spec.kubelet.evictionSoft[memory.available]',
      'evictionSoft[memory.available] has no matching evictionSoftGracePeriod[memory.available]',
    ],
  ),
  nodeClass(
    'an image GC high threshold below the low one',
    ['spec', 'kubelet'],
    { imageGCHighThresholdPercent: 50, imageGCLowThresholdPercent: 80 },
    [
      'spec.kubelet.imageGCHighThresholdPercent',
      'imageGCHighThresholdPercent (50) must be greater than imageGCLowThresholdPercent (80)',
    ],
  ),
  nodeClass('a negative reservation', ['spec', 'kubelet'], { kubeReserved: { cpu: '-100m' } }, [
    'spec.kubelet.kubeReserved.cpu',
    '"-100m" is not a non-negative quantity',
  ]),
  nodeClass('an unknown reserved resource', ['spec', 'kubelet'], { systemReserved: { gpu: '1' } }, [
    'spec.kubelet.systemReserved.gpu',
    '"gpu" is not a valid key for systemReserved; valid keys are cpu, memory, ephemeral-storage, pid',
  ]),
  nodeClass('an unknown kubelet setting', ['spec', 'kubelet'], { registryPullQPS: 10 }, [
    'spec.kubelet.registryPullQPS',
    'unknown field "registryPullQPS"',
  ]),
  nodeClass('an instance store policy other than RAID0', ['spec', 'instanceStorePolicy'], 'RAID1', [
    'spec.instanceStorePolicy',
    'instanceStorePolicy "RAID1" is not one of RAID0',
  ]),
  nodeClass('a UDP timeout EC2 refuses', ['spec', 'connectionTracking'], { udpTimeout: 10 }, [
    'spec.connectionTracking.udpTimeout',
    'must be at least 30, got 10',
  ]),
  // aws: pkg/apis/v1/ec2nodeclass_validation_cel_test.go, ConnectionTracking
  nodeClass('connection tracking that sets no timeout', ['spec', 'connectionTracking'], {}, [
    'spec.connectionTracking',
    'at least one of tcpEstablishedTimeout, udpStreamTimeout, or udpTimeout must be set',
  ]),
  ...(
    [
      ['tcpEstablishedTimeout', 59, 'must be at least 60, got 59'],
      ['tcpEstablishedTimeout', 432001, 'must be at most 432000, got 432001'],
      ['udpStreamTimeout', 59, 'must be at least 60, got 59'],
      ['udpStreamTimeout', 181, 'must be at most 180, got 181'],
      ['udpTimeout', 29, 'must be at least 30, got 29'],
      ['udpTimeout', 61, 'must be at most 60, got 61'],
    ] as const
  ).map(([field, value, detail]) =>
    nodeClass(`a ${field} of ${value}`, ['spec', 'connectionTracking'], { [field]: value }, [
      `spec.connectionTracking.${field}`,
      detail,
    ]),
  ),
  nodeClass(
    'an unknown network interface type',
    ['spec', 'networkInterfaces'],
    [{ networkCardIndex: 0, deviceIndex: 0, interfaceType: 'efa' }],
    [
      'spec.networkInterfaces[0].interfaceType',
      'interfaceType "efa" is not one of interface, efa-only',
    ],
  ),
  // aws: pkg/apis/v1/ec2nodeclass_validation_cel_test.go, NetworkInterfaces
  nodeClass(
    'a negative network card index',
    ['spec', 'networkInterfaces'],
    [PRIMARY, { networkCardIndex: -1, deviceIndex: 0, interfaceType: 'interface' }],
    ['spec.networkInterfaces[1].networkCardIndex', 'must be at least 0, got -1'],
  ),
  nodeClass(
    'a negative device index',
    ['spec', 'networkInterfaces'],
    [PRIMARY, { networkCardIndex: 0, deviceIndex: -1, interfaceType: 'interface' }],
    ['spec.networkInterfaces[1].deviceIndex', 'must be at least 0, got -1'],
  ),
  ...(
    [
      [
        'two network interfaces on one card and device index',
        [
          { networkCardIndex: 0, deviceIndex: 1, interfaceType: 'efa-only' },
          { networkCardIndex: 1, deviceIndex: 0, interfaceType: 'interface' },
          { networkCardIndex: 1, deviceIndex: 0, interfaceType: 'efa-only' },
        ],
      ],
      [
        'two EFA-only interfaces on one card',
        [
          { networkCardIndex: 1, deviceIndex: 0, interfaceType: 'efa-only' },
          { networkCardIndex: 1, deviceIndex: 1, interfaceType: 'efa-only' },
        ],
      ],
    ] as const
  ).map(([name, others]) =>
    nodeClass(
      name,
      ['spec', 'networkInterfaces'],
      [PRIMARY, ...others],
      ['spec.networkInterfaces', DISTINCT_SLOTS],
    ),
  ),
  ...(
    [
      [
        'no primary network interface',
        { networkCardIndex: 0, deviceIndex: 1, interfaceType: 'interface' },
      ],
      [
        'an EFA-only primary interface',
        { networkCardIndex: 0, deviceIndex: 0, interfaceType: 'efa-only' },
      ],
    ] as const
  ).map(([name, only]) =>
    nodeClass(
      name,
      ['spec', 'networkInterfaces'],
      [only],
      [
        'spec.networkInterfaces',
        "networkInterfaces must include a primary interface with interfaceType='interface'",
      ],
    ),
  ),
  nodeClass(
    'more than 150 network interfaces',
    ['spec', 'networkInterfaces'],
    Array.from({ length: 151 }, (_, deviceIndex) => ({
      networkCardIndex: 0,
      deviceIndex,
      interfaceType: 'interface',
    })),
    ['spec.networkInterfaces', 'must have at most 150 items, got 151'],
  ),
];

const NODE_CLAIM_CASES: readonly InvalidCase[] = [
  claim(
    'a NodeClaim requirement with In and no values',
    ['spec', 'requirements'],
    requirement('karpenter.sh/nodepool', 'In', []),
    ['spec.requirements[0].values', 'operator In needs at least one value'],
  ),
  claim(
    'a NodeClaim requirement on a hostname',
    ['spec', 'requirements'],
    requirement('kubernetes.io/hostname', 'In', ['a']),
    ['spec.requirements[0].key', 'label kubernetes.io/hostname is restricted'],
  ),
  claim('a NodeClaim without a nodeClassRef', ['spec', 'nodeClassRef'], undefined, [
    'spec.nodeClassRef',
    'required field "nodeClassRef" is missing',
  ]),
  claim(
    'a resource request that is not a quantity',
    ['spec', 'resources'],
    { requests: { cpu: 'two' } },
    ['spec.resources.requests.cpu', '"two" is not a quantity'],
  ),
  claim('a status timestamp that is not RFC 3339', ['status'], { lastPodEventTime: 'yesterday' }, [
    'status.lastPodEventTime',
    '"yesterday" is not an RFC 3339 time',
  ]),
];

describe('invalid Karpenter documents', () => {
  it.each([...NODE_POOL_CASES, ...NODE_CLASS_CASES, ...NODE_CLAIM_CASES])(
    'rejects $name',
    ({ parse, doc, path, detail }) => {
      // Prepare (the case's document)

      // Act
      const error = catchManifestError(() => parse(doc));

      // Assess
      expect(error.location.path).toBe(path);
      expect(error.detail).toContain(detail);
    },
  );

  it('states the allowed operators when one is unknown', () => {
    // Prepare
    const doc = withField(aMinimalNodePool(), [...REQUIREMENTS, 0, 'operator'], 'Equals');

    // Act
    const error = catchManifestError(() => parseNodePool(doc));

    // Assess
    expect(error.message).toBe(
      'spec.template.spec.requirements[0].operator: operator "Equals" is not one of In, NotIn, Exists, DoesNotExist, Gt, Lt, Gte, Lte',
    );
    expect(error.code).toBe('InvalidManifest');
  });

  it('reports a misspelt field before the required field it leaves missing', () => {
    // Prepare
    const { requirements, ...rest } = aMinimalNodePool().spec.template.spec;
    const doc = withField(aMinimalNodePool(), [...TEMPLATE_SPEC], {
      ...rest,
      requirments: requirements,
    });

    // Act
    const error = catchManifestError(() => parseNodePool(doc));

    // Assess
    expect(error.location.path).toBe('spec.template.spec.requirments');
    expect(error.detail).toBe('unknown field "requirments"');
  });

  it('rejects a document that is not a mapping', () => {
    // Prepare
    const doc = ['not', 'a', 'NodePool'];

    // Act
    const error = catchManifestError(() => parseNodePool(doc));

    // Assess
    expect(error.detail).toBe('a NodePool must be a mapping, got a list');
    expect(error.location.path).toBeUndefined();
  });
});
