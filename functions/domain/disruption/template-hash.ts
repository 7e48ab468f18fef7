/**
 * The NodePool template hash that static drift compares (core: pkg/apis/v1/nodepool.go, Hash):
 * the template's labels, annotations, taints, startup taints, class reference, expireAfter and
 * terminationGracePeriod. Requirements are left out (requirement drift checks them against the
 * node's labels) and so are budgets, weight and limits, which change behaviour, not nodes. Lists
 * are compared as sets and empty values as absent, as Karpenter's hashstructure options do.
 *
 * A claim records the hash of the template it was made from, with the hash version; claims made
 * under another version (another release, or Karpenter itself) are never called drifted by the
 * hash, so an upgrade does not roll every node.
 */
import { Annotation } from '../labels.ts';
import type { NodePool } from '../node-pool.ts';
import { stableHash } from './stable-hash.ts';

export const NODEPOOL_HASH_VERSION = 'nodesmith-v1';

export interface TemplateHash {
  readonly hash: string;
  readonly version: string;
}

/** The hash of the pool's template as Nodesmith computes it. */
export function computeTemplateHash(pool: NodePool): TemplateHash {
  const { requirements: _ignored, ...spec } = pool.spec.template.spec;
  const template = { metadata: pool.spec.template.metadata, spec };
  return { hash: stableHash(template), version: NODEPOOL_HASH_VERSION };
}

/**
 * The hash to compare claims against: the one stamped on the pool when it carries one (a
 * NodePool read from a Karpenter cluster), else Nodesmith's own.
 */
export function templateHash(pool: NodePool): TemplateHash {
  const hash = pool.metadata.annotations?.[Annotation.nodePoolHash];
  const version = pool.metadata.annotations?.[Annotation.nodePoolHashVersion];
  return hash !== undefined && version !== undefined
    ? { hash, version }
    : computeTemplateHash(pool);
}
