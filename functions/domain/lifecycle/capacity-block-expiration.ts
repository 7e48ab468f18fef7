/**
 * Claims in a capacity block about to end (aws: pkg/controllers/capacityreservation/expiration):
 * EC2 reclaims a block's instances 30 minutes before its end, so Karpenter deletes their
 * NodeClaims once the block is expiring, 40 minutes before, and the nodes drain while there is
 * time. The reservation's state comes from the class's status as resolved now.
 */
import type { EC2NodeClass } from '../node-class.ts';
import type { NodeClaimRecord } from '../state/node-claim-record.ts';
import { isGoing } from './claim-deletion.ts';

export const CAPACITY_BLOCK_EXPIRING_REASON = 'CapacityBlockExpiring';

export interface ExpiringClaim {
  readonly claim: NodeClaimRecord;
  readonly message: string;
}

export function expiringCapacityBlockClaims(
  claims: readonly NodeClaimRecord[],
  nodeClasses: readonly EC2NodeClass[],
): ExpiringClaim[] {
  const expiring = new Map(
    nodeClasses
      .flatMap((c) => c.status?.capacityReservations ?? [])
      .filter((r) => r.state === 'expiring')
      .map((r) => [r.id, r]),
  );
  return claims.flatMap((claim) => {
    const id = claim.network?.capacityReservationId;
    const reservation = id === undefined ? undefined : expiring.get(id);
    if (reservation === undefined || isGoing(claim)) return [];
    const ends = reservation.endTime === undefined ? '' : ` at ${reservation.endTime}`;
    return [{ claim, message: `capacity block ${reservation.id} ends${ends}` }];
  });
}
