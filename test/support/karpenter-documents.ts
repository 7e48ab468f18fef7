/** Karpenter documents as platform teams write them, for tests that send them through the API. */

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
