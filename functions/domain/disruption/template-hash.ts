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

export const NODEPOOL_HASH_VERSION = 'nodesmith-v1';

export interface TemplateHash {
  readonly hash: string;
  readonly version: string;
}

/** JSON with sorted keys, arrays as sorted sets and empty values dropped: equal specs, equal text. */
function canonical(value: unknown): string | undefined {
  if (value === undefined || value === null || value === '' || value === 0 || value === false) {
    return undefined;
  }
  if (Array.isArray(value)) {
    const items = value.map(canonical).filter((v) => v !== undefined);
    return items.length === 0 ? undefined : `[${items.sort().join(',')}]`;
  }
  if (typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .flatMap((key) => {
        const text = canonical((value as Record<string, unknown>)[key]);
        return text === undefined ? [] : [`${JSON.stringify(key)}:${text}`];
      });
    return entries.length === 0 ? undefined : `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}

/** 64-bit FNV-1a, in decimal as Karpenter prints its hash. */
function fnv1a64(text: string): string {
  let hash = 0xcbf29ce484222325n;
  for (let i = 0; i < text.length; i++) {
    hash ^= BigInt(text.charCodeAt(i));
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash.toString();
}

/** The hash of the pool's template as Nodesmith computes it. */
export function computeTemplateHash(pool: NodePool): TemplateHash {
  const { requirements: _ignored, ...spec } = pool.spec.template.spec;
  const template = { metadata: pool.spec.template.metadata, spec };
  return { hash: fnv1a64(canonical(template) ?? ''), version: NODEPOOL_HASH_VERSION };
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
