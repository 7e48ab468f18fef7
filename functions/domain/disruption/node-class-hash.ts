/**
 * The EC2NodeClass hash that static drift compares (aws: pkg/apis/v1/ec2nodeclass.go, Hash):
 * the spec a node was launched with — user data, tags, block devices, kubelet, metadata options,
 * role — with the AMI family as resolved, so `al2023@latest` without `amiFamily` and with
 * `amiFamily: AL2023` hash alike. Selector terms are left out, as Karpenter leaves them: what
 * they resolve to is compared instead (a node on an AMI the class no longer selects has drifted).
 * `ipPrefixCount` is left out too (`hash:"ignore"`): changing it drifts no node.
 *
 * A claim records the hash with its version; a claim made under another version is never called
 * drifted by the hash.
 */
import { Annotation } from '../labels.ts';
import { amiFamilyOf, type EC2NodeClass } from '../node-class.ts';
import { stableHash } from './stable-hash.ts';
import type { TemplateHash } from './template-hash.ts';

export const NODECLASS_HASH_VERSION = 'nodesmith-v1';

/** The hash of the class's spec as Nodesmith computes it. */
export function computeNodeClassHash(nodeClass: EC2NodeClass): TemplateHash {
  const {
    amiSelectorTerms: _ami,
    subnetSelectorTerms: _subnets,
    securityGroupSelectorTerms: _groups,
    capacityReservationSelectorTerms: _reservations,
    amiFamily: _family,
    ipPrefixCount: _prefixes,
    ...spec
  } = nodeClass.spec;
  return {
    hash: stableHash([spec, amiFamilyOf(nodeClass)]),
    version: NODECLASS_HASH_VERSION,
  };
}

/** The hash stamped on the class when it carries one (read from a Karpenter cluster), else ours. */
export function nodeClassHash(nodeClass: EC2NodeClass): TemplateHash {
  const annotations = nodeClass.metadata.annotations;
  const hash = annotations?.[Annotation.nodeClassHash];
  const version = annotations?.[Annotation.nodeClassHashVersion];
  return hash !== undefined && version !== undefined
    ? { hash, version }
    : computeNodeClassHash(nodeClass);
}
