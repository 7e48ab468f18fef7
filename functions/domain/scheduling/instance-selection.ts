/**
 * Turning a filled node claim into a launch decision: the capacity type (reserved, then spot,
 * then on-demand, whichever the requirements allow and an option offers), the options ordered
 * cheapest first and truncated without breaking minValues, and the offering a launch tries
 * first. Ties break by instance type name, then zone (docs/design.md §5.5).
 */
import { CAPACITY_TYPE_ORDER, type InstanceType, type Offering } from '../instance-type.ts';
import { type CapacityType, Label } from '../labels.ts';
import { requirement } from '../requirements/requirement.ts';
import { add, type Requirements, requirementsOf } from '../requirements/requirements.ts';
import { unmetMinValues, withMinValues } from './min-values.ts';
import type { NodeClaimTemplate } from './node-claim-template.ts';
import type { PricedIndex } from './option-masks.ts';

/** Karpenter writes at most this many instance types on a NodeClaim. */
export const MAX_INSTANCE_TYPES = 600;

export interface PricedOption {
  readonly instanceType: InstanceType;
  readonly offering: Offering;
}

export interface InstanceSelection {
  readonly capacityType: CapacityType;
  /** Cheapest first; the first one's offering is what a launch tries first. */
  readonly options: readonly PricedOption[];
  readonly requirements: Requirements;
}

/**
 * The open options in price order, at most 600 — unless cutting there would break a minValues
 * requirement, in which case every open option is kept.
 */
function openOptions(
  template: NodeClaimTemplate,
  priced: readonly PricedIndex[],
  isOpen: (index: number) => boolean,
  reqs: Requirements,
): PricedOption[] {
  const flexible = withMinValues(reqs);
  const ordered: PricedOption[] = [];
  for (const { index, offering } of priced) {
    const instanceType = template.options[index]?.instanceType;
    if (instanceType === undefined || !isOpen(index)) continue;
    ordered.push({ instanceType, offering });
    // Without minValues nothing past the cap is ever needed, so stop collecting there.
    if (flexible.length === 0 && ordered.length === MAX_INSTANCE_TYPES) break;
  }
  if (ordered.length <= MAX_INSTANCE_TYPES) return ordered;
  const head = ordered.slice(0, MAX_INSTANCE_TYPES);
  const asOptions = head.map((o) => ({ instanceType: o.instanceType, net: {} }));
  return unmetMinValues(asOptions, flexible) === undefined ? head : ordered;
}

export function selectInstances(options: {
  readonly template: NodeClaimTemplate;
  readonly requirements: Requirements;
  readonly isOpen: (index: number) => boolean;
}): InstanceSelection | undefined {
  const { template, requirements, isOpen } = options;
  for (const capacityType of CAPACITY_TYPE_ORDER) {
    const narrowed = add(
      requirements,
      requirementsOf([requirement(Label.capacityType, 'In', [capacityType])]),
    );
    const allowed = narrowed.get(Label.capacityType);
    if (allowed === undefined || allowed.values.size === 0) continue;
    const options = openOptions(template, template.masks.priced(narrowed), isOpen, narrowed);
    if (options.length === 0) continue;
    return { capacityType, options, requirements: narrowed };
  }
  return undefined;
}
