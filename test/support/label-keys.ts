/**
 * Label keys and the keys Karpenter reads them as: the deprecated aliases of core's
 * `NormalizedLabels` and the EBS CSI driver's zone key (which the AWS provider adds in
 * pkg/operator/operator.go) become the well-known label; any other key stays as it is.
 */
import { Label } from '../../functions/domain/labels.ts';

export const NORMALIZED_LABEL_KEYS: readonly (readonly [string, string])[] = [
  ['failure-domain.beta.kubernetes.io/zone', Label.zone],
  ['failure-domain.beta.kubernetes.io/region', Label.region],
  ['beta.kubernetes.io/arch', Label.arch],
  ['beta.kubernetes.io/os', Label.os],
  ['beta.kubernetes.io/instance-type', Label.instanceType],
  ['topology.ebs.csi.aws.com/zone', Label.zone],
  [Label.zone, Label.zone],
  ['team', 'team'],
  ['example.com/team', 'example.com/team'],
];
