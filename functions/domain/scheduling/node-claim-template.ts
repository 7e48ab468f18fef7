/**
 * What a NodePool can launch: its requirements (spec requirements, template labels, the pool
 * label), its taints, the instance types that satisfy them with an available offering, and the
 * daemon overhead on each (core: scheduling/nodeclaimtemplate.go).
 */
import type { DaemonSet } from '../daemon-set.ts';
import type { InstanceType, Offering } from '../instance-type.ts';
import type { Labels } from '../label-selector.ts';
import { CapacityType, Label } from '../labels.ts';
import type { NodePool } from '../node-pool.ts';
import { requirement } from '../requirements/requirement.ts';
import {
  add,
  fromLabels,
  fromNodeSelector,
  intersectsReason,
  type Requirements,
  requirementsOf,
} from '../requirements/requirements.ts';
import { subtract } from '../resources.ts';
import type { Taint } from '../taints.ts';
import { type DaemonOverhead, daemonOverhead } from './daemon-overhead.ts';
import { EfficiencyTable } from './efficiency.ts';
import { GrowthBound } from './growth-bound.ts';
import type { InstanceTypeOption } from './instance-type-option.ts';
import { hasAvailableOffering, offeringFilter } from './offering-compatibility.ts';
import { OFFERING_KEYS } from './offering-keys.ts';
import { OpenOptionLists } from './open-option-lists.ts';
import { OptionMasks } from './option-masks.ts';
import { type OptionIndex, optionIndex } from './option-set.ts';

export interface NodeClaimTemplate {
  readonly nodePool: NodePool;
  readonly name: string;
  readonly labels: Labels;
  readonly requirements: Requirements;
  readonly taints: readonly Taint[];
  readonly startupTaints: readonly Taint[];
  /** Cheapest first (by the cheapest offering the pool allows), then by name. */
  readonly options: readonly InstanceTypeOption[];
  /** Each option's price: its cheapest offering the pool allows, in the options' order. */
  readonly prices: readonly number[];
  readonly index: OptionIndex;
  /** Label keys some option's instance type carries: only these can narrow the options. */
  readonly typeKeys: ReadonlySet<string>;
  readonly masks: OptionMasks;
  /** Claims' open options in price order, one list object per distinct list. */
  readonly openLists: OpenOptionLists;
  readonly efficiency: EfficiencyTable;
  /** How far a claim may grow, counting every resource (growth-bound.ts). */
  readonly growth: GrowthBound;
  readonly daemons: DaemonOverhead;
}

/** A pool that does not say which capacity type it wants gets on-demand, as Karpenter defaults it. */
function withCapacityTypeDefault(reqs: Requirements): Requirements {
  if (reqs.has(Label.capacityType)) return reqs;
  return add(
    reqs,
    requirementsOf([requirement(Label.capacityType, 'In', [CapacityType.onDemand])]),
  );
}

/**
 * Narrows open-ended zone and capacity-type requirements to the values the pool's instance
 * types can actually offer, so topology sees every domain a new node could land in.
 */
function withOfferedDomains(reqs: Requirements, types: readonly InstanceType[]): Requirements {
  const accept = offeringFilter(reqs);
  const zones = new Set<string>();
  const capacityTypes = new Set<string>();
  for (const it of types) {
    for (const o of it.offerings) {
      if (!accept(o)) continue;
      zones.add(o.zone);
      capacityTypes.add(o.capacityType);
    }
  }
  return add(
    reqs,
    requirementsOf([
      requirement(Label.zone, 'In', [...zones]),
      requirement(Label.capacityType, 'In', [...capacityTypes]),
    ]),
  );
}

/** The pool's own requirements: spec requirements, template labels, pool and class labels. */
function declaredRequirements(nodePool: NodePool): { labels: Labels; requirements: Requirements } {
  const template = nodePool.spec.template;
  const labels: Labels = {
    ...template.metadata?.labels,
    [Label.nodePool]: nodePool.metadata.name,
    [Label.nodeClass]: template.spec.nodeClassRef.name,
  };
  const requirements = withCapacityTypeDefault(
    add(fromNodeSelector(template.spec.requirements), fromLabels(labels)),
  );
  return { labels, requirements };
}

/** Options cheapest first, each with what its daemons leave for pods, and the price it ranked by. */
function pricedOptions(
  types: readonly InstanceType[],
  requirements: Requirements,
  daemons: DaemonOverhead,
) {
  const ranked = byPrice(types, offeringFilter(requirements));
  const options: InstanceTypeOption[] = ranked.map(({ instanceType }) => ({
    instanceType,
    net: subtract(instanceType.allocatable, daemons.byInstanceType.get(instanceType.name) ?? {}),
  }));
  return { options, prices: ranked.map((r) => r.price) };
}

export function nodeClaimTemplate(options: {
  readonly nodePool: NodePool;
  readonly instanceTypes: readonly InstanceType[];
  readonly daemonSets: readonly DaemonSet[];
}): NodeClaimTemplate {
  const { nodePool } = options;
  const declared = declaredRequirements(nodePool);
  const accept = offeringFilter(declared.requirements);
  const compatible = options.instanceTypes.filter(
    (it) =>
      intersectsReason(it.requirements, declared.requirements) === undefined &&
      hasAvailableOffering(it, accept),
  );
  const requirements = withOfferedDomains(declared.requirements, compatible);
  const taints = nodePool.spec.template.spec.taints ?? [];
  const daemons = daemonOverhead({
    daemonSets: options.daemonSets,
    taints,
    requirements,
    instanceTypes: compatible,
  });
  const { options: priced, prices } = pricedOptions(compatible, requirements, daemons);
  return {
    nodePool,
    name: nodePool.metadata.name,
    labels: declared.labels,
    requirements,
    taints,
    startupTaints: nodePool.spec.template.spec.startupTaints ?? [],
    options: priced,
    prices,
    index: optionIndex(priced),
    masks: new OptionMasks(priced, [...OFFERING_KEYS]),
    openLists: new OpenOptionLists(priced),
    efficiency: new EfficiencyTable(priced, prices),
    growth: new GrowthBound(priced, prices),
    typeKeys: new Set(compatible.flatMap((it) => [...it.requirements.keys()])),
    daemons,
  };
}

/** Cheapest first by the cheapest offering the pool allows, then by name. */
function byPrice(
  types: readonly InstanceType[],
  accept: (o: Offering) => boolean,
): { instanceType: InstanceType; price: number }[] {
  return types
    .map((instanceType) => ({
      instanceType,
      price: Math.min(...instanceType.offerings.filter(accept).map((o) => o.pricePerHour)),
    }))
    .sort(
      (a, b) =>
        a.price - b.price ||
        (a.instanceType.name < b.instanceType.name
          ? -1
          : a.instanceType.name > b.instanceType.name
            ? 1
            : 0),
    );
}
