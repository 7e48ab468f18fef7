/**
 * What one CreateFleet asks for (aws: pkg/providers/instance/instance.go): the claim's cheapest
 * instance types, at most 60, each in every allowed zone where it has an available offering of
 * the claim's capacity type, through that zone's emptiest subnet. Types are grouped by the AMI
 * they boot and the max pods their kubelet is given, one launch template per group.
 */
import type { InstanceType } from '../../domain/instance-type.ts';
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
}

export interface LaunchGroup {
  readonly imageId: string;
  readonly maxPods: number;
  readonly overrides: readonly LaunchOverride[];
}

export interface LaunchPlan {
  readonly capacityType: CapacityType;
  readonly groups: readonly LaunchGroup[];
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

/** Zones (sorted) where the type has an available offering of the capacity type and a subnet. */
function offeredZones(
  it: InstanceType,
  capacityType: CapacityType,
  zones: ReadonlyMap<string, unknown>,
): string[] {
  const offered = it.offerings
    .filter((o) => o.available && o.capacityType === capacityType && zones.has(o.zone))
    .map((o) => o.zone);
  return [...new Set(offered)].sort();
}

interface Candidate {
  readonly instanceType: InstanceType;
  readonly zones: readonly string[];
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
      out.push({ instanceType, zones: offered });
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
  for (const { instanceType, zones } of chosen) {
    const imageId = imageFor(instanceType, input.resolved);
    if (imageId === undefined) continue;
    const maxPods = pinnedMaxPods ?? instanceType.capacity[ResourceName.pods] ?? 110;
    const key = `${imageId}/${maxPods}`;
    const group = groups.get(key) ?? { imageId, maxPods, overrides: [] };
    groups.set(key, group);
    for (const zone of zones) {
      group.overrides.push({
        instanceType: instanceType.name,
        subnetId: subnets.get(zone)?.id ?? '',
        zone,
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
  const groups = groupByTemplate(input, candidates(input, capacityType, subnets), subnets);
  if (groups.length === 0) {
    throw new InvalidConfigError(
      `launching node claim ${input.claim.name}: no AMI of ec2nodeclass ${input.resolved.name} fits its instance types`,
    );
  }
  const subnetZones = new Map(input.resolved.subnets.map((subnet) => [subnet.id, subnet.zone]));
  return { capacityType, groups, subnetZones };
}
