/**
 * Amazon Linux 2 is an AMI family Karpenter v1 still launches (aws: pkg/providers/amifamily/al2.go,
 * until EKS stops publishing its AMIs), but Nodesmith writes no `/etc/eks/bootstrap.sh` user
 * data for it. Every entry point (manifest reader, API, adapter) refuses it with this one message,
 * so a plan never shows a node the controller would not launch.
 */
import type { AmiFamily } from './node-class.ts';

/** The alias that replaces `al2@…`: EKS's recommended AL2023 image. */
export const AL2_REPLACEMENT_ALIAS = 'al2023@latest';

export const AL2_UNSUPPORTED = `Amazon Linux 2 (AL2) is not supported: Karpenter v1 still launches it until EKS ends AL2, but Nodesmith cannot bootstrap its nodes; use the alias ${AL2_REPLACEMENT_ALIAS} (amiFamily AL2023) instead`;

/** Why a family cannot be launched, or undefined when it can. */
export function unsupportedAmiFamily(family: AmiFamily | undefined): string | undefined {
  return family === 'AL2' ? AL2_UNSUPPORTED : undefined;
}
