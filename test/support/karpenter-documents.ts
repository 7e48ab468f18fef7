/**
 * Karpenter documents for tests: as platform teams write them, for the API and the command line,
 * and the smallest each kind Karpenter accepts, as objects to build on.
 */

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
export const SHOP_NODE_POOL = `apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: default
spec:
  template:
    spec:
      nodeClassRef:
        group: karpenter.k8s.aws
        kind: EC2NodeClass
        name: default
      requirements:
        - key: karpenter.sh/capacity-type
          operator: In
          values: ["on-demand", "spot"]
        - key: karpenter.k8s.aws/instance-category
          operator: In
          values: ["c", "m", "r"]
      taints:
        - key: example.com/special
          effect: NoSchedule
  limits:
    cpu: "1000"
  disruption:
    consolidationPolicy: WhenEmptyOrUnderutilized
    consolidateAfter: 1m
`;

/** The cluster's limits as docs/limits.md shows them. */
export const CLUSTER_LIMITS = `apiVersion: nodesmith.io/v1
kind: ClusterLimits
metadata:
  name: cluster
spec:
  limits:
    nodes: "400"
    cpu: "2000"
    memory: 8000Gi
    nodesmith.io/hourly-cost: "900"
`;

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
