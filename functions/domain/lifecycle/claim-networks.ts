/**
 * What each claim's instance was launched into, by claim name, for drift to compare with its
 * class (aws: pkg/cloudprovider/drift.go reads the instance). The records know it from the
 * launch; a NodeClaim does not carry it, so it travels beside the planning claims.
 */
import type { InstanceNetwork } from '../instance-network.ts';
import type { NodeClaimRecord } from '../state/node-claim-record.ts';

export function claimNetworks(
  claims: readonly NodeClaimRecord[],
): ReadonlyMap<string, InstanceNetwork> {
  return new Map(
    claims.flatMap((claim) => (claim.network === undefined ? [] : [[claim.name, claim.network]])),
  );
}
