/**
 * The parts of a `karpenter.sh/v1` NodePool that decisions read. The full document (status,
 * every validated field) is described by the manifest schema; it is assignable to this type.
 */
import type { Condition } from './condition.ts';
import type { Labels } from './label-selector.ts';
import type { NodeSelectorRequirement } from './requirements/requirement.ts';
import type { Taint } from './taints.ts';

export interface NodeClassRef {
  readonly group: string;
  readonly kind: string;
  readonly name: string;
}

export type DisruptionReason = 'Underutilized' | 'Empty' | 'Drifted';

export interface DisruptionBudget {
  /** An integer or a percentage (`"10%"`, rounded up). */
  readonly nodes: string;
  readonly schedule?: string;
  readonly duration?: string;
  readonly reasons?: readonly DisruptionReason[];
}

export interface NodePoolDisruption {
  readonly consolidationPolicy?: 'WhenEmpty' | 'WhenEmptyOrUnderutilized' | 'Balanced';
  readonly consolidateAfter?: string;
  readonly budgets?: readonly DisruptionBudget[];
}

export interface NodeClaimTemplateSpec {
  readonly taints?: readonly Taint[];
  readonly startupTaints?: readonly Taint[];
  readonly requirements: readonly NodeSelectorRequirement[];
  readonly nodeClassRef: NodeClassRef;
  readonly expireAfter?: string;
  readonly terminationGracePeriod?: string;
}

export interface NodePool {
  /** `deletionTimestamp` set: the pool is being deleted and launches nothing more. */
  readonly metadata: {
    readonly name: string;
    readonly deletionTimestamp?: string;
    /** Karpenter stamps the template hash here (`karpenter.sh/nodepool-hash` and its version). */
    readonly annotations?: Labels;
  };
  readonly spec: {
    readonly template: {
      readonly metadata?: { readonly labels?: Labels; readonly annotations?: Labels };
      readonly spec: NodeClaimTemplateSpec;
    };
    readonly disruption?: NodePoolDisruption;
    /** A ResourceList; `nodes` counts nodes. */
    readonly limits?: Readonly<Record<string, string | number>>;
    readonly weight?: number;
    /** Set, the pool is static: it keeps exactly this many nodes, whatever the pods ask. */
    readonly replicas?: number;
  };
  readonly status?: {
    readonly resources?: Readonly<Record<string, string | number>>;
    readonly nodes?: number;
    readonly conditions?: readonly Condition[];
  };
}

/** Pools in the order the scheduler tries them: heavier weight first, then name. */
export function byWeight(a: NodePool, b: NodePool): number {
  const weight = (b.spec.weight ?? 0) - (a.spec.weight ?? 0);
  if (weight !== 0) return weight;
  return a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0;
}

/**
 * A static pool keeps `replicas` nodes and is never scheduled for pods; a dynamic one grows and
 * shrinks with them (core: pkg/utils/nodepool/nodepool.go, IsStatic).
 */
export function isStatic(pool: NodePool): boolean {
  return pool.spec.replicas !== undefined;
}
