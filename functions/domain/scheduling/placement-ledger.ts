/**
 * Where each cluster and spread placement group's instances run while one plan is made, so no
 * claim is planned where EC2 would refuse it: a cluster group runs in one zone, a rack-level
 * spread group at most seven instances in each (placement-group.ts). The group's members are the
 * cluster's nodes and claims labelled with its id, whatever launched them; every claim the plan
 * pins to a zone is counted as it is made. Karpenter leaves both rules to EC2 and learns them
 * from CreateFleet's errors (aws: designs/placement-groups-support.md; instance/instance.go
 * `updateUnavailableOfferingsCache`, `IsSpreadPlacementGroupLimitError`); a plan that keeps
 * them launches nothing EC2 must refuse, and tells the pods why they wait.
 */
import { claimIndex } from '../by-node.ts';
import type { Labels } from '../label-selector.ts';
import { Label } from '../labels.ts';
import type { Node } from '../node.ts';
import type { NodeClaim } from '../node-claim.ts';
import {
  confinesZones,
  MAX_SPREAD_INSTANCES_PER_ZONE,
  type PlacementGroup,
} from '../placement-group.ts';
import { type Requirement, requirement } from '../requirements/requirement.ts';
import type { NodeClaimTemplate } from './node-claim-template.ts';

/** The zones a group leaves open to a new instance, and why the others are closed. */
export interface PlacementRule {
  readonly zones: Requirement;
  /** One sentence naming the group, its strategy and the zones. */
  readonly reason: string;
}

const describe = (group: PlacementGroup) =>
  `placement group "${group.name}" (${group.id}) is a ${group.strategy} group`;

export class PlacementLedger {
  /** Instances per zone, by group id. */
  readonly #zones = new Map<string, Map<string, number>>();

  /** `members` are the labels of the cluster's nodes and claims; those of no group are skipped. */
  constructor(members: Iterable<Labels> = []) {
    for (const labels of members) {
      const id = labels[Label.placementGroupId];
      const zone = labels[Label.zone];
      if (id !== undefined && zone !== undefined) this.#add(id, zone);
    }
  }

  /** What the group allows a new instance now; undefined when every zone is open. */
  rule(group: PlacementGroup): PlacementRule | undefined {
    if (!confinesZones(group)) return undefined;
    const zones = this.#zones.get(group.id);
    if (zones === undefined || zones.size === 0) return undefined;
    if (group.strategy === 'cluster') {
      const running = [...zones.keys()].sort();
      return {
        zones: requirement(Label.zone, 'In', running),
        reason: `${describe(group)} running in ${running.join(', ')}, and a cluster group does not span zones`,
      };
    }
    const full = [...zones]
      .flatMap(([zone, count]) => (count >= MAX_SPREAD_INSTANCES_PER_ZONE ? [zone] : []))
      .sort();
    if (full.length === 0) return undefined;
    return {
      zones: requirement(Label.zone, 'NotIn', full),
      reason: `${describe(group)} with ${MAX_SPREAD_INSTANCES_PER_ZONE} instances in ${full.join(', ')}, the most EC2 runs in a zone`,
    };
  }

  /** One more instance of the group in `zone`: a claim the plan pinned there. */
  take(group: PlacementGroup, zone: string): void {
    this.#add(group.id, zone);
  }

  #add(id: string, zone: string): void {
    const zones = this.#zones.get(id) ?? new Map<string, number>();
    zones.set(zone, (zones.get(zone) ?? 0) + 1);
    this.#zones.set(id, zones);
  }
}

/** The group the template's class launches into; every type of a class has the same one. */
export function placementGroupOf(template: NodeClaimTemplate): PlacementGroup | undefined {
  return template.options[0]?.instanceType.placementGroup;
}

/**
 * The labels of a snapshot's nodes, whoever launched them, and of its claims whose node has not
 * joined: the instances placement groups hold.
 */
export function memberLabels(sources: {
  readonly nodes: readonly Node[];
  readonly nodeClaims: readonly NodeClaim[];
}): Labels[] {
  const claimOf = claimIndex(sources.nodeClaims);
  const joined = new Set(sources.nodes.map(claimOf));
  return [
    ...sources.nodes.map((node) => node.labels),
    ...sources.nodeClaims
      .filter((claim) => !joined.has(claim))
      .map((claim) => claim.metadata.labels ?? {}),
  ];
}

/** The ledger of a plan over `templates`: empty, and read from nothing, when no group needs one. */
export function placementLedger(
  templates: Iterable<NodeClaimTemplate>,
  members: () => Iterable<Labels>,
): PlacementLedger {
  for (const template of templates) {
    const group = placementGroupOf(template);
    if (group !== undefined && confinesZones(group)) return new PlacementLedger(members());
  }
  return new PlacementLedger();
}
