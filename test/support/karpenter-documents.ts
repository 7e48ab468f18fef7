/**
 * Karpenter documents for tests: as platform teams write them, for the API and the command line,
 * NodePools built to order, and the smallest each kind Karpenter accepts, as objects to build on.
 */
import { stringify } from 'yaml';

/** The documents as one YAML file, `---` between them. */
export function yamlOf(...documents: readonly object[]): string {
  return documents.map((document) => stringify(document)).join('---\n');
}

export interface NodePoolDocumentOptions {
  readonly name?: string;
  /** The EC2NodeClass it names; `default` unless given. */
  readonly nodeClass?: string;
  /** `In` requirements: the values each label may take. */
  readonly requirements: Readonly<Record<string, readonly string[]>>;
  readonly taints?: readonly { readonly key: string; readonly effect: string }[];
  readonly limits?: Readonly<Record<string, string>>;
  readonly disruption?: Readonly<Record<string, unknown>>;
}

/** A NodePool document with these fields, on the smallest NodePool Karpenter accepts. */
export function aNodePoolDocument(options: NodePoolDocumentOptions) {
  const { metadata, spec, ...kind } = aMinimalNodePool();
  const { nodeClassRef } = spec.template.spec;
  const requirements = Object.entries(options.requirements).map(([key, values]) => ({
    key,
    operator: 'In',
    values: [...values],
  }));
  return {
    ...kind,
    metadata: { ...metadata, name: options.name ?? metadata.name },
    spec: {
      template: {
        spec: {
          nodeClassRef: { ...nodeClassRef, name: options.nodeClass ?? nodeClassRef.name },
          requirements,
          ...(options.taints === undefined ? {} : { taints: options.taints }),
        },
      },
      ...(options.limits === undefined ? {} : { limits: options.limits }),
      ...(options.disruption === undefined ? {} : { disruption: options.disruption }),
    },
  };
}

/** The EC2NodeClass of Karpenter's getting-started guide, for a cluster named `shop`. */
export const SHOP_NODE_CLASS = `apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata:
  name: default
spec:
  role: KarpenterNodeRole-shop
  amiSelectorTerms:
    - alias: al2023@latest
  subnetSelectorTerms:
    - tags:
        karpenter.sh/discovery: shop
  securityGroupSelectorTerms:
    - tags:
        karpenter.sh/discovery: shop
`;

/** A NodePool as Karpenter's getting-started guide writes it, using the class above. */
export const SHOP_NODE_POOL = yamlOf(
  aNodePoolDocument({
    requirements: {
      'karpenter.sh/capacity-type': ['on-demand', 'spot'],
      'karpenter.k8s.aws/instance-category': ['c', 'm', 'r'],
    },
    taints: [{ key: 'example.com/special', effect: 'NoSchedule' }],
    limits: { cpu: '1000' },
    disruption: { consolidationPolicy: 'WhenEmptyOrUnderutilized', consolidateAfter: '1m' },
  }),
);

/** A ClusterLimits document holding these limits. */
export function aClusterLimitsDocument(limits: Readonly<Record<string, string>>) {
  return {
    apiVersion: 'nodesmith.io/v1',
    kind: 'ClusterLimits',
    metadata: { name: 'cluster' },
    spec: { limits },
  };
}

/** The cluster's limits as docs/limits.md shows them. */
export const CLUSTER_LIMITS = yamlOf(
  aClusterLimitsDocument({
    nodes: '400',
    cpu: '2000',
    memory: '8000Gi',
    'nodesmith.io/hourly-cost': '900',
  }),
);

/** The smallest NodePool Karpenter accepts; a fresh copy on every call. */
export function aMinimalNodePool() {
  return {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodePool',
    metadata: { name: 'default' },
    spec: {
      template: {
        spec: {
          nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
          requirements: [{ key: 'kubernetes.io/arch', operator: 'In', values: ['amd64'] }],
        },
      },
    },
  };
}

/** The smallest EC2NodeClass Karpenter accepts; a fresh copy on every call. */
export function aMinimalNodeClass() {
  return {
    apiVersion: 'karpenter.k8s.aws/v1',
    kind: 'EC2NodeClass',
    metadata: { name: 'default' },
    spec: {
      role: 'KarpenterNodeRole-my-cluster',
      amiSelectorTerms: [{ alias: 'al2023@latest' }],
      subnetSelectorTerms: [{ tags: { 'karpenter.sh/discovery': 'my-cluster' } }],
      securityGroupSelectorTerms: [{ tags: { 'karpenter.sh/discovery': 'my-cluster' } }],
    },
  };
}

/** The smallest NodeClaim Karpenter writes; a fresh copy on every call. */
export function aMinimalNodeClaim() {
  return {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodeClaim',
    metadata: { name: 'default-8tcjh' },
    spec: {
      nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
      requirements: [{ key: 'karpenter.sh/nodepool', operator: 'In', values: ['default'] }],
    },
  };
}
