/**
 * What one CreateFleet asks for (aws: pkg/providers/instance/instance.go): the claim's cheapest
 * instance types, at most 60, each in every allowed zone where it has an available offering of
 * the claim's capacity type, through that zone's emptiest subnet. Types are grouped by the AMI
 * they boot, the max pods their kubelet is given and the EFA interfaces they get, one launch
 * template per group.
 *
 * A reserved launch asks only for the claim's reservations, one per type and zone (the one with
 * the most instances left) and all of one kind (ODCR, capacity block, interruptible ODCR), with a
 * launch template per reservation that targets it (aws: instance/filter ReservedOfferingFilter and
 * CapacityReservationTypeFilter, amifamily/resolver.go).
 */
import type { CapacityReservationType } from '../../domain/capacity-reservation.ts';
import type { InstanceType, Offering } from '../../domain/instance-type.ts';
import type { CapacityType } from '../../domain/labels.ts';
import { Label } from '../../domain/labels.ts';
import { has, type Requirement } from '../../domain/requirements/requirement.ts';
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

/** The reservation a reserved launch targets, and how EC2 must be asked for it. */
export interface TargetedReservation {
  readonly id: string;
  readonly type: CapacityReservationType;
  readonly interruptible: boolean;
}

export interface LaunchGroup {
  readonly imageId: string;
  readonly maxPods: number;
  /** EFA interfaces the template attaches: all the type has when the claim asks for EFA, else 0. */
  readonly efaCount: number;
  readonly overrides: readonly LaunchOverride[];
  /** A reserved launch's group targets exactly one reservation. */
  readonly reservation?: TargetedReservation;
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
  /** A reserved launch's kind of reservation, the same for every group. */
  readonly reservation?: Omit<TargetedReservation, 'id'>;
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

/** Of two reserved offerings in one zone, the one with more instances left (uncounted: most). */
function roomier(a: Offering | undefined, b: Offering): boolean {
  if (a === undefined) return true;
  return (b.reservationCapacity ?? Infinity) > (a.reservationCapacity ?? Infinity);
}

interface Offered {
  readonly capacityType: CapacityType;
  readonly zones: ReadonlyMap<string, unknown>;
  /** The claim's `capacity-reservation-id` requirement, when it has one. */
  readonly reservations: Requirement | undefined;
}

/** Whether the offering may be asked for: available, of the capacity type, in a zone with a subnet, of the claim's reservations. */
function requestable(o: Offering, offered: Offered): boolean {
  if (!o.available || o.capacityType !== offered.capacityType || !offered.zones.has(o.zone))
    return false;
  const { reservations } = offered;
  return (
    o.capacityType !== 'reserved' ||
    reservations === undefined ||
    has(reservations, o.reservationId ?? '')
  );
}

/** The type's requestable offerings, one per zone (a reservation: the roomiest), by zone. */
function offeredZones(it: InstanceType, offered: Offered): Offering[] {
  const byZone = new Map<string, Offering>();
  for (const o of it.offerings) {
    if (!requestable(o, offered)) continue;
    const current = byZone.get(o.zone);
    const better = o.capacityType === 'reserved' ? roomier(current, o) : current === undefined;
    if (better) byZone.set(o.zone, o);
  }
  return [...byZone.values()].sort((a, b) => (a.zone < b.zone ? -1 : a.zone > b.zone ? 1 : 0));
}

interface Candidate {
  readonly instanceType: InstanceType;
  readonly offerings: readonly Offering[];
}

/** The claim's options in its order (cheapest first) that can be requested, at most 60. */
function candidates(input: LaunchPlanInput, offering: Offered): Candidate[] {
  const { capacityType } = offering;
  const byName = new Map(input.context.instanceTypes.map((it) => [it.name, it]));
  const out: Candidate[] = [];
  for (const name of input.claim.instanceTypeOptions) {
    const instanceType = byName.get(name);
    const offered = instanceType === undefined ? [] : offeredZones(instanceType, offering);
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

/**
 * A claim whose pods ask for EFA gets every EFA interface its type supports; one that does not
 * gets none (aws: pkg/providers/amifamily/resolver.go, `efaCount` in `Resolve`).
 */
function efaCountFor(it: InstanceType, claim: NodeClaimRecord): number {
  if (claim.requests === undefined || !Object.hasOwn(claim.requests, ResourceName.efa)) return 0;
  return it.capacity[ResourceName.efa] ?? 0;
}

function groupByTemplate(
  input: LaunchPlanInput,
  chosen: readonly Candidate[],
  subnets: ReadonlyMap<string, ResolvedNodeClassSubnet>,
): LaunchGroup[] {
  const groups = new Map<string, LaunchGroup & { overrides: LaunchOverride[] }>();
  const pinnedMaxPods = input.context.nodeClass.spec.kubelet?.maxPods;
  for (const { instanceType, offerings } of chosen) {
    const imageId = imageFor(instanceType, input.resolved);
    if (imageId === undefined) continue;
    const maxPods = pinnedMaxPods ?? instanceType.capacity[ResourceName.pods] ?? 110;
    const efaCount = efaCountFor(instanceType, input.claim);
    for (const offering of offerings) {
      const { zone, pricePerHour } = offering;
      const reservation = targetOf(offering);
      const key = `${imageId}/${maxPods}/${efaCount}/${reservation?.id ?? ''}`;
      const group = groups.get(key) ?? {
        imageId,
        maxPods,
        efaCount,
        overrides: [],
        ...(reservation === undefined ? {} : { reservation }),
      };
      groups.set(key, group);
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

function targetOf(offering: Offering): TargetedReservation | undefined {
  if (offering.capacityType !== 'reserved' || offering.reservationId === undefined)
    return undefined;
  return {
    id: offering.reservationId,
    type: offering.reservationType ?? 'default',
    interruptible: offering.reservationInterruptible ?? false,
  };
}

/**
 * One fleet asks for one market: the kind of reservation of the cheapest candidate, and only
 * offerings of that kind (aws: instance/filter CapacityReservationTypeFilter).
 */
function oneKind(chosen: readonly Candidate[]): Candidate[] {
  const first = chosen[0]?.offerings[0];
  if (first?.capacityType !== 'reserved') return [...chosen];
  const kind = (o: Offering) =>
    `${o.reservationType ?? 'default'}/${o.reservationInterruptible ?? false}`;
  return chosen.flatMap((c) => {
    const offerings = c.offerings.filter((o) => kind(o) === kind(first));
    return offerings.length === 0 ? [] : [{ ...c, offerings }];
  });
}

export function planLaunch(input: LaunchPlanInput): LaunchPlan {
  const capacityType = input.claim.offering.capacityType;
  const subnets = launchableZones(input);
  const reservations = fromNodeSelector(input.claim.requirements).get(Label.capacityReservationId);
  const chosen = oneKind(candidates(input, { capacityType, zones: subnets, reservations }));
  const groups = groupByTemplate(input, chosen, subnets);
  if (groups.length === 0) {
    throw new InvalidConfigError(
      `launching node claim ${input.claim.name}: no AMI of ec2nodeclass ${input.resolved.name} fits its instance types`,
    );
  }
  const subnetZones = new Map(input.resolved.subnets.map((subnet) => [subnet.id, subnet.zone]));
  const prioritized = chosen.some((c) => c.offerings.some((o) => o.priceOverlaid === true));
  const reserved = groups[0]?.reservation;
  const reservation =
    reserved === undefined
      ? {}
      : { reservation: { type: reserved.type, interruptible: reserved.interruptible } };
  return { capacityType, groups, prioritized, subnetZones, ...reservation };
}

/** The reservation a reserved plan asks for each `instanceType/zone` in. */
export function reservationsByOffering(plan: LaunchPlan): Map<string, string> {
  const out = new Map<string, string>();
  for (const group of plan.groups) {
    const id = group.reservation?.id;
    if (id === undefined) continue;
    for (const o of group.overrides) out.set(`${o.instanceType}/${o.zone}`, id);
  }
  return out;
}
