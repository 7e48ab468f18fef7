/**
 * What a CreateFleet answer means for the claim (aws: pkg/providers/instance/instance.go): the
 * instance launched, a launch template that vanished (recreate and retry), or a failure. An
 * instant fleet reports per-offering errors next to (or instead of) instances; when nothing
 * launched and some offerings had no capacity, those offerings are the result.
 */
import type { CreateFleetCommandOutput, CreateFleetError } from '@aws-sdk/client-ec2';
import type { CapacityType } from '../../domain/labels.ts';
import {
  byOffering,
  type OfferingKey,
  offeringId,
} from '../../domain/state/unavailable-offering.ts';
import type { LaunchResult } from '../../ports/cloud-provider.ts';
import { InsufficientCapacityError, ThrottledError } from '../../ports/errors.ts';
import {
  CAPACITY_ERROR_CODES,
  LAUNCH_TEMPLATE_NOT_FOUND_CODES,
  THROTTLING_ERROR_CODES,
} from './errors.ts';
import { providerIdOf } from './mappers.ts';

export type FleetOutcome =
  | { readonly kind: 'launched'; readonly instance: LaunchResult }
  | { readonly kind: 'templateMissing' }
  | { readonly kind: 'failed'; readonly error: Error };

export interface FleetContext {
  readonly claimName: string;
  readonly capacityType: CapacityType;
  readonly subnetZones: ReadonlyMap<string, string>;
  /**
   * The security groups the launch templates attach: CreateFleet reports the subnet it used,
   * not the groups, and every template of a launch carries the class's resolved set.
   */
  readonly securityGroupIds: readonly string[];
  /** ISO-8601: CreateFleet does not report a launch time. */
  readonly launchTime: string;
  /** A reserved launch's reservation by `instanceType/zone`: one per type and zone is asked for. */
  readonly reservations?: ReadonlyMap<string, string>;
}

function zoneOf(
  overrides: { AvailabilityZone?: string; SubnetId?: string } | undefined,
  context: FleetContext,
): string {
  return overrides?.AvailabilityZone ?? context.subnetZones.get(overrides?.SubnetId ?? '') ?? '';
}

/** A reserved launch is reserved whatever lifecycle EC2 reports (aws: NewInstanceFromFleet). */
function capacityTypeOf(lifecycle: string | undefined, context: FleetContext): CapacityType {
  if (context.capacityType === 'reserved') return 'reserved';
  return lifecycle === 'spot'
    ? 'spot'
    : lifecycle === 'on-demand'
      ? 'on-demand'
      : context.capacityType;
}

/**
 * The offerings capacity errors name, each once, in a stable order; a reserved one with the
 * reservation the launch asked for in its type and zone, whose unavailability is its own.
 */
export function failedOfferings(
  errors: readonly CreateFleetError[],
  context: FleetContext,
): OfferingKey[] {
  const failed = new Map<string, OfferingKey>();
  for (const error of errors) {
    if (!CAPACITY_ERROR_CODES.has(error.ErrorCode ?? '')) continue;
    const overrides = error.LaunchTemplateAndOverrides?.Overrides;
    const instanceType = overrides?.InstanceType ?? '';
    const zone = zoneOf(overrides, context);
    const capacityType = capacityTypeOf(error.Lifecycle, context);
    const reservationId =
      capacityType === 'reserved'
        ? context.reservations?.get(`${instanceType}/${zone}`)
        : undefined;
    const offering = {
      instanceType,
      zone,
      capacityType,
      ...(reservationId === undefined ? {} : { reservationId }),
    };
    failed.set(offeringId(offering), offering);
  }
  return [...failed.values()].sort(byOffering);
}

function describeErrors(errors: readonly CreateFleetError[]): string {
  const unique = new Set(
    errors.map((e) => `${e.ErrorCode ?? 'Unknown'}: ${e.ErrorMessage ?? ''}`.trim()),
  );
  return [...unique].sort().join('; ') || 'no instance and no error';
}

function failure(errors: readonly CreateFleetError[], context: FleetContext): FleetOutcome {
  const doing = `launching node claim ${context.claimName}`;
  const detail = describeErrors(errors);
  const offerings = failedOfferings(errors, context);
  if (offerings.length > 0) {
    return {
      kind: 'failed',
      error: new InsufficientCapacityError(`${doing}: ${detail}`, offerings, { cause: errors }),
    };
  }
  const codes = errors.map((e) => e.ErrorCode ?? '');
  if (codes.length > 0 && codes.every((code) => THROTTLING_ERROR_CODES.has(code))) {
    return { kind: 'failed', error: new ThrottledError(`${doing}: ${detail}`, { cause: errors }) };
  }
  return { kind: 'failed', error: new Error(`${doing}: ${detail}`, { cause: errors }) };
}

function launchedInstance(
  output: CreateFleetCommandOutput,
  context: FleetContext,
): LaunchResult | undefined {
  const launched = (output.Instances ?? []).find((i) => (i.InstanceIds ?? []).length > 0);
  const instanceId = launched?.InstanceIds?.[0];
  if (launched === undefined || instanceId === undefined) return undefined;
  const overrides = launched.LaunchTemplateAndOverrides?.Overrides;
  const zone = zoneOf(overrides, context);
  const unavailable = failedOfferings(output.Errors ?? [], context);
  const instanceType = launched.InstanceType ?? overrides?.InstanceType ?? '';
  const reservation = context.reservations?.get(`${instanceType}/${zone}`);
  return {
    instanceId,
    providerID: providerIdOf(zone, instanceId),
    instanceType,
    zone,
    capacityType: capacityTypeOf(launched.Lifecycle, context),
    launchTime: context.launchTime,
    ...(overrides?.ImageId === undefined ? {} : { imageId: overrides.ImageId }),
    // aws: instance/types.go NewInstanceFromFleet takes the subnet from the fleet's overrides.
    ...(overrides?.SubnetId === undefined
      ? {}
      : {
          network: {
            subnetId: overrides.SubnetId,
            securityGroupIds: context.securityGroupIds,
            ...(reservation === undefined ? {} : { capacityReservationId: reservation }),
          },
        }),
    ...(unavailable.length === 0 ? {} : { unavailableOfferings: unavailable }),
  };
}

export function interpretFleet(
  output: CreateFleetCommandOutput,
  context: FleetContext,
): FleetOutcome {
  const instance = launchedInstance(output, context);
  if (instance !== undefined) return { kind: 'launched', instance };
  const errors = output.Errors ?? [];
  if (
    errors.length > 0 &&
    errors.every((e) => LAUNCH_TEMPLATE_NOT_FOUND_CODES.has(e.ErrorCode ?? ''))
  ) {
    return { kind: 'templateMissing' };
  }
  return failure(errors, context);
}
