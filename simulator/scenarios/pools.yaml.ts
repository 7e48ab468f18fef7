/**
 * The NodePool and EC2NodeClass the built-in scenarios run with, written as a platform team
 * writes them for Karpenter: spot first with on-demand allowed, current c/m/r families, both
 * architectures, consolidation on.
 */
export const SCENARIO_POOLS_YAML = `apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata:
  name: default
spec:
  amiSelectorTerms:
    - alias: al2023@latest
  role: KarpenterNodeRole-simulated
  subnetSelectorTerms:
    - tags:
        karpenter.sh/discovery: simulated
  securityGroupSelectorTerms:
    - tags:
        karpenter.sh/discovery: simulated
---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: general
spec:
  template:
    metadata:
      labels:
        team: platform
    spec:
      nodeClassRef:
        group: karpenter.k8s.aws
        kind: EC2NodeClass
        name: default
      requirements:
        - key: karpenter.sh/capacity-type
          operator: In
          values: ["spot", "on-demand"]
        - key: karpenter.k8s.aws/instance-category
          operator: In
          values: ["c", "m", "r"]
        - key: karpenter.k8s.aws/instance-generation
          operator: Gt
          values: ["5"]
        - key: kubernetes.io/arch
          operator: In
          values: ["amd64", "arm64"]
      expireAfter: 720h
  disruption:
    consolidationPolicy: WhenEmptyOrUnderutilized
    consolidateAfter: 1m
`;
