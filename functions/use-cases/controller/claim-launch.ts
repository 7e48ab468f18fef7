/**
 * Launching one written claim (docs/design.md §1.2 "write intent before acting"): CreateFleet with
 * the claim's name as ClientToken, then the instance recorded on the claim. A capacity error or a
 * class that cannot be launched — or is not stored at all — removes the claim so its pods can be
 * planned again; any other failure leaves it `Pending` for the next pass to retry, which the
 * client token makes safe.
 */

import type { InstanceType } from '../../domain/instance-type.ts';
import { type Launch, launchedClaimRecord } from '../../domain/lifecycle/claim-record.ts';
import type { EC2NodeClass } from '../../domain/node-class.ts';
import type { NodeClaimRecord } from '../../domain/state/node-claim-record.ts';
import type { OfferingKey } from '../../domain/state/unavailable-offering.ts';
import type { LaunchableNodeClass } from '../../ports/cloud-provider.ts';
import {
  ConflictError,
  InsufficientCapacityError,
  InvalidConfigError,
  NodeClassNotReadyError,
} from '../../ports/errors.ts';
import type { FencedWrite } from '../../ports/state-store.ts';
import type { PassDependencies } from './pass-dependencies.ts';

export type LaunchOutcome =
  | {
      readonly kind: 'launched';
      readonly claim: NodeClaimRecord;
      /** Offerings the fleet found without capacity on the way. */
      readonly unavailable: readonly OfferingKey[];
    }
  | {
      readonly kind: 'capacity';
      readonly offerings: readonly OfferingKey[];
      readonly reason: string;
    }
  | {
      readonly kind: 'invalid';
      readonly reason: string;
      /** The claim's EC2NodeClass could not be found or resolved (Karpenter's NodeClassNotReady). */
      readonly nodeClassNotReady: boolean;
    }
  | { readonly kind: 'retry'; readonly reason: string };

export interface ClaimLaunch {
  readonly claim: NodeClaimRecord;
  /** The stored EC2NodeClasses, the claim's among them. */
  readonly nodeClasses: readonly EC2NodeClass[];
  /** The pool's instance types, as the planner saw them. */
  readonly instanceTypes: readonly InstanceType[];
  readonly write: FencedWrite;
}

function optionTypes(claim: NodeClaimRecord, types: readonly InstanceType[]): InstanceType[] {
  const options = new Set(claim.instanceTypeOptions);
  return types.filter((it) => options.has(it.name));
}

/**
 * The stored class the claim names. One nobody wrote (no subnet or security group selectors, the
 * default AMI) is not what the user asked for: the launch is refused, as Karpenter's AWS provider
 * refuses a NodeClaim whose class it cannot resolve (`pkg/cloudprovider/cloudprovider.go`,
 * `Create`).
 */
function storedNodeClass(
  claim: NodeClaimRecord,
  nodeClasses: readonly EC2NodeClass[],
): LaunchableNodeClass {
  const nodeClass = nodeClasses.find((c) => c.metadata.name === claim.nodeClass);
  if (nodeClass !== undefined) return nodeClass;
  throw new NodeClassNotReadyError(
    `launching node claim ${claim.name}: EC2NodeClass "${claim.nodeClass}" not found`,
  );
}

/** Records the instance on the claim; `launch` is what the cloud returned or listed. */
export function recordLaunch(
  deps: Pick<PassDependencies, 'state' | 'clock'>,
  claim: NodeClaimRecord,
  launch: Launch,
  types: readonly InstanceType[],
  write: FencedWrite,
): Promise<NodeClaimRecord> {
  const launched = launchedClaimRecord(claim, launch, types, deps.clock.now());
  return deps.state.nodeClaims.update(launched, write);
}

export async function launchClaim(
  deps: Pick<PassDependencies, 'state' | 'cloud' | 'clock'>,
  { claim, nodeClasses, instanceTypes, write }: ClaimLaunch,
): Promise<LaunchOutcome> {
  try {
    const result = await deps.cloud.launch(claim, {
      nodeClass: storedNodeClass(claim, nodeClasses),
      labels: claim.labels ?? {},
      taints: claim.taints ?? [],
      startupTaints: claim.startupTaints ?? [],
      instanceTypes: optionTypes(claim, instanceTypes),
    });
    const launched = await recordLaunch(deps, claim, result, instanceTypes, write);
    return { kind: 'launched', claim: launched, unavailable: result.unavailableOfferings ?? [] };
  } catch (err) {
    if (err instanceof InsufficientCapacityError) {
      await deps.state.nodeClaims.delete(claim.name, write);
      return { kind: 'capacity', offerings: err.offerings, reason: err.message };
    }
    if (err instanceof InvalidConfigError) {
      await deps.state.nodeClaims.delete(claim.name, write);
      const nodeClassNotReady = err instanceof NodeClassNotReadyError;
      return { kind: 'invalid', reason: err.message, nodeClassNotReady };
    }
    // A conflict on our own claim means another pass took the lease: stop, do not guess.
    if (err instanceof ConflictError) throw err;
    return { kind: 'retry', reason: err instanceof Error ? err.message : String(err) };
  }
}
