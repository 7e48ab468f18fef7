/** The parts of a `karpenter.sh/v1` NodeClaim that planning reads (in-flight and launched capacity). */
import type { Condition } from './condition.ts';
import type { Labels } from './label-selector.ts';
import type { NodeClassRef } from './node-pool.ts';
import type { NodeSelectorRequirement } from './requirements/requirement.ts';
import type { Taint } from './taints.ts';

export interface NodeClaim {
  readonly metadata: {
    readonly name: string;
    readonly labels?: Labels;
    readonly annotations?: Labels;
    readonly deletionTimestamp?: string;
    readonly creationTimestamp?: string;
  };
  readonly spec: {
    readonly requirements: readonly NodeSelectorRequirement[];
    readonly taints?: readonly Taint[];
    readonly startupTaints?: readonly Taint[];
    readonly resources?: { readonly requests?: Readonly<Record<string, string | number>> };
    readonly nodeClassRef: NodeClassRef;
    readonly expireAfter?: string;
    readonly terminationGracePeriod?: string;
  };
  readonly status?: {
    readonly nodeName?: string;
    readonly providerID?: string;
    readonly imageID?: string;
    readonly capacity?: Readonly<Record<string, string | number>>;
    readonly allocatable?: Readonly<Record<string, string | number>>;
    readonly conditions?: readonly Condition[];
    /** The last pod bound to the node or gone from it: `consolidateAfter` counts from here. */
    readonly lastPodEventTime?: string;
  };
}

export function hasCondition(claim: NodeClaim, type: string): boolean {
  return claim.status?.conditions?.some((c) => c.type === type && c.status === 'True') ?? false;
}
