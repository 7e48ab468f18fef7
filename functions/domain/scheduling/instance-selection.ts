/**
 * Turning a filled node claim into a launch decision: the capacity type (reserved, then spot,
 * then on-demand, whichever the requirements allow and an option offers), the options ordered
 * cheapest first and truncated without breaking minValues, and the offering a launch tries
 * first. Ties break by instance type name, then zone (docs/design.md §5.5).
 */
import { CAPACITY_TYPE_ORDER } from '../instance-type.ts';
import { type CapacityType, Label } from '../labels.ts';
import { requirement } from '../requirements/requirement.ts';
import { add, type Requirements, requirementsOf } from '../requirements/requirements.ts';
import { unmetMinValues, withMinValues } from './min-values.ts';
import type { NodeClaimTemplate } from './node-claim-template.ts';
import type { OpenOptionList } from './open-option-lists.ts';
import type { PricedIndex } from './option-masks.ts';

/** Karpenter writes at most this many instance types on a NodeClaim. */
export const MAX_INSTANCE_TYPES = 600;

export interface InstanceSelection extends OpenOptionList {
  readonly capacityType: CapacityType;
  readonly requirements: Requirements;
}

/**
 * The open options in price order, at most 600 — unless cutting there would break a minValues
 * requirement, in which case every open option is kept. The first option's offering is what a
 * launch tries first.
 */
function openOptions(
  template: NodeClaimTemplate,
  priced: readonly PricedIndex[],
  isOpen: (index: number) => boolean,
  reqs: Requirements,
): OpenOptionList {
  const flexible = withMinValues(reqs);
  // Without minValues nothing past the cap is ever needed, so collecting stops there.
  if (flexible.length === 0) return template.openLists.openList(priced, isOpen, MAX_INSTANCE_TYPES);
  const all = template.openLists.openList(priced, isOpen, Number.POSITIVE_INFINITY);
  if (all.options.length <= MAX_INSTANCE_TYPES) return all;
  const head = all.instanceTypes
    .slice(0, MAX_INSTANCE_TYPES)
    .map((instanceType) => ({ instanceType, net: {} }));
  return unmetMinValues(head, flexible) === undefined
    ? template.openLists.openList(priced, isOpen, MAX_INSTANCE_TYPES)
    : all;
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
    const open = openOptions(template, template.masks.priced(narrowed), isOpen, narrowed);
    if (open.options.length === 0) continue;
    return { capacityType, ...open, requirements: narrowed };
  }
  return undefined;
}
