/**
 * Shared set-up for the EC2 adapter tests: response fixtures as the SDK hands them out, a clock
 * the tests move, mocked clients, and builders for node classes, claims and launch contexts.
 */
import { readFileSync } from 'node:fs';
import {
  DescribeImagesCommand,
  DescribeSecurityGroupsCommand,
  DescribeSubnetsCommand,
  EC2Client,
  EC2ServiceException,
} from '@aws-sdk/client-ec2';
import { PricingClient } from '@aws-sdk/client-pricing';
import { GetParameterCommand, ParameterNotFound, SSMClient } from '@aws-sdk/client-ssm';
import { mockClient } from 'aws-sdk-client-mock';
import { parse } from 'yaml';
import type { ClusterSettings } from '../../../functions/adapters/ec2/cluster-settings.ts';
import { parseMime } from '../../../functions/adapters/ec2/user-data/mime.ts';
import type { InstanceType } from '../../../functions/domain/instance-type.ts';
import { BUNDLED_CATALOG } from '../../../functions/domain/instance-types/bundled-catalog.ts';
import { buildInstanceTypes } from '../../../functions/domain/instance-types/instance-types.ts';
import { onDemandPrices } from '../../../functions/domain/instance-types/prices.ts';
import type { NodeClaimRecord } from '../../../functions/domain/state/node-claim-record.ts';
import type {
  LaunchableNodeClass,
  LaunchContext,
} from '../../../functions/ports/cloud-provider.ts';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

/** The SDK deserializes these members to Date; the JSON fixtures hold ISO strings. */
const DATE_MEMBERS = new Set(['LaunchTime', 'Timestamp', 'CreateTime']);

/** A response fixture from test/fixtures/ec2, shaped as the SDK returns it. */
export function fixture<T = Record<string, unknown>>(name: string): T {
  const text = readFileSync(new URL(`../../fixtures/ec2/${name}.json`, import.meta.url), 'utf8');
  return JSON.parse(text, (key, value) =>
    DATE_MEMBERS.has(key) && typeof value === 'string' ? new Date(value) : value,
  ) as T;
}

export { aClock, HOUR, MINUTE, SECOND } from '../../support/clock.ts';

export const CLUSTER: ClusterSettings = {
  name: 'prod',
  region: 'us-west-2',
  kubernetesVersion: '1.31',
  endpoint: 'https://ABCDEF0123456789.gr7.us-west-2.eks.amazonaws.com',
  certificateAuthority: Buffer.from(
    '-----BEGIN CERTIFICATE-----\nMIIC\n-----END CERTIFICATE-----\n',
  ).toString('base64'),
  serviceCidr: '172.20.0.0/16',
  clusterDns: '172.20.0.10',
};

export function mockedClients() {
  const ec2 = new EC2Client({ region: CLUSTER.region });
  const ssm = new SSMClient({ region: CLUSTER.region });
  const pricing = new PricingClient({ region: 'us-east-1' });
  return {
    ec2,
    ssm,
    pricing,
    ec2Mock: mockClient(ec2),
    ssmMock: mockClient(ssm),
    pricingMock: mockClient(pricing),
  };
}

export type MockedClients = ReturnType<typeof mockedClients>;

/** The public parameters behind `al2023@latest` for Kubernetes 1.31, and the images they name. */
export const AL2023_LATEST: Readonly<Record<string, string>> = {
  '/aws/service/eks/optimized-ami/1.31/amazon-linux-2023/x86_64/standard/recommended/image_id':
    'ami-0a1b2c3d4e5f60001',
  '/aws/service/eks/optimized-ami/1.31/amazon-linux-2023/x86_64/nvidia/recommended/image_id':
    'ami-0a1b2c3d4e5f60002',
  '/aws/service/eks/optimized-ami/1.31/amazon-linux-2023/x86_64/neuron/recommended/image_id':
    'ami-0a1b2c3d4e5f60003',
  '/aws/service/eks/optimized-ami/1.31/amazon-linux-2023/arm64/standard/recommended/image_id':
    'ami-0a1b2c3d4e5f60004',
  '/aws/service/eks/optimized-ami/1.31/amazon-linux-2023/arm64/nvidia/recommended/image_id':
    'ami-0a1b2c3d4e5f60005',
};

/** Subnets, security groups and al2023@latest images as the fixtures describe them. */
export function stubDiscovery(clients: MockedClients): void {
  clients.ec2Mock.on(DescribeSubnetsCommand).resolves(fixture('describe-subnets'));
  clients.ec2Mock.on(DescribeSecurityGroupsCommand).resolves(fixture('describe-security-groups'));
  clients.ec2Mock.on(DescribeImagesCommand).resolves(fixture('describe-images-al2023'));
  clients.ssmMock
    .on(GetParameterCommand)
    .rejects(new ParameterNotFound({ message: 'parameter not found', $metadata: {} }));
  for (const [Name, Value] of Object.entries(AL2023_LATEST)) {
    clients.ssmMock
      .on(GetParameterCommand, { Name })
      .resolves({ Parameter: { Name, Type: 'String', Value, Version: 12, DataType: 'text' } });
  }
}

/** An error as the EC2 client throws it for an error code in the response. */
export function ec2Error(code: string, message = code): EC2ServiceException {
  return new EC2ServiceException({
    name: code,
    $fault: 'client',
    $metadata: { httpStatusCode: 400 },
    message,
  });
}

export function aNodeClass(spec: Partial<LaunchableNodeClass['spec']> = {}): LaunchableNodeClass {
  return {
    metadata: { name: 'default' },
    spec: {
      role: 'KarpenterNodeRole-prod',
      instanceProfile: undefined,
      amiSelectorTerms: [{ alias: 'al2023@latest' }],
      subnetSelectorTerms: [{ tags: { 'karpenter.sh/discovery': 'prod' } }],
      securityGroupSelectorTerms: [{ tags: { 'karpenter.sh/discovery': 'prod' } }],
      ...spec,
    },
  };
}

export function aClaim(overrides: Partial<NodeClaimRecord> = {}): NodeClaimRecord {
  return {
    name: 'default-7xk2p',
    nodePool: 'default',
    nodeClass: 'default',
    requirements: [
      { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['spot', 'on-demand'] },
      {
        key: 'node.kubernetes.io/instance-type',
        operator: 'In',
        values: ['m5.large', 'm5.xlarge'],
      },
    ],
    instanceTypeOptions: ['m5.large', 'm5.xlarge'],
    offering: {
      instanceType: 'm5.large',
      zone: 'us-west-2a',
      capacityType: 'spot',
      pricePerHour: 0.04,
    },
    phase: 'Pending',
    timestamps: { Pending: '2024-08-10T09:00:00.000Z' },
    version: 1,
    ...overrides,
  };
}

export const ZONES = ['us-west-2a', 'us-west-2b', 'us-west-2c'];

/** Instance types as the planner would hand them over: bundled facts, us-east-1 prices. */
export function instanceTypesNamed(
  names: readonly string[],
  nodeClass?: LaunchableNodeClass,
): readonly InstanceType[] {
  const wanted = new Set(names);
  return buildInstanceTypes({
    catalog: BUNDLED_CATALOG.filter((entry) => wanted.has(entry.name)),
    region: CLUSTER.region,
    prices: onDemandPrices(CLUSTER.region).prices,
    zones: ZONES,
    nodeClass,
  });
}

export function aLaunchContext(overrides: Partial<LaunchContext> = {}): LaunchContext {
  const nodeClass =
    overrides.nodeClass ?? aNodeClass({ instanceProfile: 'prod-nodes', role: undefined });
  return {
    nodeClass,
    labels: {
      'karpenter.sh/nodepool': 'default',
      'karpenter.k8s.aws/ec2nodeclass': 'default',
      team: 'platform',
      'node.kubernetes.io/instance-type': 'm5.large',
    },
    taints: [{ key: 'dedicated', value: 'batch', effect: 'NoSchedule' }],
    startupTaints: [{ key: 'node.cilium.io/agent-not-ready', value: 'true', effect: 'NoExecute' }],
    instanceTypes: instanceTypesNamed(
      ['m5.large', 'm5.xlarge', 'm7g.large', 'g4dn.xlarge'],
      nodeClass,
    ),
    ...overrides,
  };
}

export function decodeBase64(text: string | undefined): string {
  return Buffer.from(text ?? '', 'base64').toString('utf8');
}

/** The NodeConfig Nodesmith generated: the last part of the MIME document, parsed. */
export function generatedNodeConfig(userData: string): {
  spec: {
    cluster: Record<string, unknown>;
    kubelet: { config: Record<string, unknown>; flags?: string[] };
    instance?: unknown;
  };
} {
  const parts = parseMime(userData);
  return parse(parts.at(-1)?.content ?? '');
}
