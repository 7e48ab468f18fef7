/**
 * What one CreateFleet asks for (aws: pkg/providers/instance/instance.go): the claim's cheapest
 * instance types, at most 60, each in every allowed zone where it has an available offering of
 * the claim's capacity type, through that zone's emptiest subnet. Types are grouped by the AMI
 * they boot and the max pods their kubelet is given, one launch template per group.
 */
import type { InstanceType, Offering } from '../../domain/instance-type.ts';
import type { CapacityType } from '../../domain/labels.ts';
import { Label } from '../../domain/labels.ts';
import { has } from '../../domain/requirements/requirement.ts';
import { fromNodeSelector, isCompatible } from '../../domain/requirements/requirements.ts';
import { ResourceName } from '../../domain/resources.ts';
import type { NodeClaimRecord } from '../../domain/state/node-claim-record.ts';
import type {
  LaunchContext,
  ResolvedNodeClass,
  ResolvedNodeClassSubnet,
} from '../../ports/cloud-provider.ts';
import { InvalidConfigError } from '../../ports/errors.ts';
import { zonalSubnets } from './subnets.ts';

/** CreateFleet's practical limit on instance types per request (Karpenter's `maxInstanceTypes`). */
export const MAX_INSTANCE_TYPES = 60;

export interface LaunchOverride {
  readonly instanceType: string;
  readonly subnetId: string;
  readonly zone: string;
  /** The offering's price, which EC2 reads as a priority (lower first) when the plan is prioritized. */
  readonly price: number;
}

export interface LaunchGroup {
  readonly imageId: string;
  readonly maxPods: number;
  readonly overrides: readonly LaunchOverride[];
}

export interface LaunchPlan {
  readonly capacityType: CapacityType;
  readonly groups: readonly LaunchGroup[];
  /**
   * A NodeOverlay priced some offering: EC2 is asked to prefer the overrides by their (overlaid)
   * price rather than by its own, as Karpenter asks (aws: pkg/providers/instance/types.go).
   */
  readonly prioritized: boolean;
  /** Subnet id → zone, to place fleet errors that name only a subnet. */
  readonly subnetZones: ReadonlyMap<string, string>;
}

export interface LaunchPlanInput {
  readonly claim: NodeClaimRecord;
  readonly context: LaunchContext;
  readonly resolved: ResolvedNodeClass;
}

function launchableZones(input: LaunchPlanInput): Map<string, ResolvedNodeClassSubnet> {
  const zone = fromNodeSelector(input.claim.requirements).get(Label.zone);
  const subnets = zonalSubnets(input.resolved.subnets, (z) => zone === undefined || has(zone, z));
  if (subnets.size > 0) return subnets;
  throw new InvalidConfigError(
    `launching node claim ${input.claim.name}: no subnet of ec2nodeclass ${input.resolved.name} is in the claim's zones`,
  );
}

/** The type's available offerings of the capacity type in zones with a subnet, one per zone, by zone. */
function offeredZones(
  it: InstanceType,
  capacityType: CapacityType,
  zones: ReadonlyMap<string, unknown>,
): Offering[] {
  const byZone = new Map<string, Offering>();
  for (const o of it.offerings) {
    if (o.available && o.capacityType === capacityType && zones.has(o.zone) && !byZone.has(o.zone))
      byZone.set(o.zone, o);
  }
  return [...byZone.values()].sort((a, b) => (a.zone < b.zone ? -1 : a.zone > b.zone ? 1 : 0));
}

interface Candidate {
  readonly instanceType: InstanceType;
  readonly offerings: readonly Offering[];
}

/** The claim's options in its order (cheapest first) that can be requested, at most 60. */
function candidates(
  input: LaunchPlanInput,
  capacityType: CapacityType,
  zones: ReadonlyMap<string, unknown>,
): Candidate[] {
  const byName = new Map(input.context.instanceTypes.map((it) => [it.name, it]));
  const out: Candidate[] = [];
  for (const name of input.claim.instanceTypeOptions) {
    const instanceType = byName.get(name);
    const offered =
      instanceType === undefined ? [] : offeredZones(instanceType, capacityType, zones);
    if (instanceType !== undefined && offered.length > 0)
      out.push({ instanceType, offerings: offered });
    if (out.length === MAX_INSTANCE_TYPES) break;
  }
  if (out.length > 0) return out;
  throw new InvalidConfigError(
    `launching node claim ${input.claim.name}: no instance type option has an available ${capacityType} offering in a zone with a subnet`,
  );
}

/** The newest AMI whose requirements the type satisfies (the AMIs come newest first). */
function imageFor(it: InstanceType, resolved: ResolvedNodeClass): string | undefined {
  return resolved.amis.find((ami) =>
    isCompatible(it.requirements, fromNodeSelector(ami.requirements)),
  )?.id;
}

function groupByTemplate(
  input: LaunchPlanInput,
  chosen: readonly Candidate[],
  subnets: ReadonlyMap<string, ResolvedNodeClassSubnet>,
): LaunchGroup[] {
  const groups = new Map<
    string,
    { imageId: string; maxPods: number; overrides: LaunchOverride[] }
  >();
  const pinnedMaxPods = input.context.nodeClass.spec.kubelet?.maxPods;
  for (const { instanceType, offerings } of chosen) {
    const imageId = imageFor(instanceType, input.resolved);
    if (imageId === undefined) continue;
    const maxPods = pinnedMaxPods ?? instanceType.capacity[ResourceName.pods] ?? 110;
    const key = `${imageId}/${maxPods}`;
    const group = groups.get(key) ?? { imageId, maxPods, overrides: [] };
    groups.set(key, group);
    for (const { zone, pricePerHour } of offerings) {
      group.overrides.push({
        instanceType: instanceType.name,
        subnetId: subnets.get(zone)?.id ?? '',
        zone,
        price: pricePerHour,
      });
    }
  }
  return [...groups.values()];
}

export function planLaunch(input: LaunchPlanInput): LaunchPlan {
  const capacityType = input.claim.offering.capacityType;
  if (capacityType === 'reserved') {
    throw new InvalidConfigError(
      `launching node claim ${input.claim.name}: reserved capacity is not supported`,
    );
  }
  const subnets = launchableZones(input);
  const chosen = candidates(input, capacityType, subnets);
  const groups = groupByTemplate(input, chosen, subnets);
  if (groups.length === 0) {
    throw new InvalidConfigError(
      `launching node claim ${input.claim.name}: no AMI of ec2nodeclass ${input.resolved.name} fits its instance types`,
    );
  }
  const subnetZones = new Map(input.resolved.subnets.map((subnet) => [subnet.id, subnet.zone]));
  const prioritized = chosen.some((c) => c.offerings.some((o) => o.priceOverlaid === true));
  return { capacityType, groups, prioritized, subnetZones };
}
