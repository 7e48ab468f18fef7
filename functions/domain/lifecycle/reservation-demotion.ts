/**
 * A reserved claim whose reservation ended (aws: pkg/controllers/capacityreservation/capacitytype
 * controller.go `syncCapacityType`): EC2 keeps the instance running as on-demand, no longer in the
 * reservation, so the cloud lists it on-demand. Its claim and its registered Node are relabelled
 * `on-demand` and lose the reservation labels, and the claim forgets the reservation, so drift no
 * longer judges it by one (the instance has none), and is priced as on-demand from then on, as
 * Karpenter prices a node by the offering its zone and capacity type labels name (core:
 * pkg/controllers/disruption/types.go `resolveNodePrice`). Only reserved to on-demand: an
 * on-demand instance is never promoted. A claim already going is left alone, as is a Node being
 * deleted or not yet registered; a Node still labelled reserved is relabelled even when its
 * claim was demoted before.
 */
import type { InstanceType } from '../instance-type.ts';
import { RESERVED_PRICE_DIVISOR } from '../instance-types/reserved-offerings.ts';
import { type CapacityType, Label } from '../labels.ts';
import type { Node } from '../node.ts';
import type { NodeClaimRecord } from '../state/node-claim-record.ts';
import { isGoing } from './claim-deletion.ts';

/** The labels a reserved node carries beside its capacity type (aws: `ReservedCapacityLabels`). */
const RESERVATION_LABELS = [
  Label.capacityReservationId,
  Label.capacityReservationType,
  Label.capacityReservationInterruptible,
] as const;

export interface Demotion {
  readonly kind: 'Demote';
  readonly claim: NodeClaimRecord;
  /** Its Node, when registered and still labelled reserved. */
  readonly node?: Node;
}

function isReservedNode(node: Node | undefined): node is Node {
  return (
    node !== undefined &&
    !node.deleting &&
    node.labels[Label.registered] === 'true' &&
    node.labels[Label.capacityType] === 'reserved'
  );
}

/**
 * The demotion a claim needs now, if the cloud lists its instance as on-demand while it or its
 * Node says reserved.
 */
export function demotionOf(
  claim: NodeClaimRecord,
  listedAs: CapacityType | undefined,
  node: Node | undefined,
): Demotion | undefined {
  if (listedAs !== 'on-demand' || isGoing(claim)) return undefined;
  const nodeReserved = isReservedNode(node);
  if (claim.offering.capacityType !== 'reserved' && !nodeReserved) return undefined;
  return { kind: 'Demote', claim, ...(nodeReserved ? { node } : {}) };
}

/** The Node's label patch: on-demand, and no reservation label (`null` removes one). */
export function demotionLabels(): Record<string, string | null> {
  return {
    [Label.capacityType]: 'on-demand',
    ...Object.fromEntries(RESERVATION_LABELS.map((label) => [label, null])),
  };
}

/**
 * What the claim's instance costs as on-demand: its type's on-demand offering in its zone (core:
 * `InstanceType.OfferingPrice`). A type its pool no longer lists is priced back from the reserved
 * price, which is the on-demand price over Karpenter's divisor.
 */
function onDemandPrice(claim: NodeClaimRecord, instanceTypes: readonly InstanceType[]): number {
  const { instanceType, zone, pricePerHour } = claim.offering;
  const offering = instanceTypes
    .find((it) => it.name === instanceType)
    ?.offerings.find((o) => o.zone === zone && o.capacityType === 'on-demand');
  return offering?.pricePerHour ?? pricePerHour * RESERVED_PRICE_DIVISOR;
}

/**
 * The claim as on-demand: its offering (priced from `instanceTypes`, its pool's), its labels and
 * its network without the reservation.
 */
export function demotedClaim(
  claim: NodeClaimRecord,
  instanceTypes: readonly InstanceType[],
): NodeClaimRecord {
  const labels = Object.fromEntries(
    Object.entries(claim.labels ?? {}).filter(
      ([key]) => !(RESERVATION_LABELS as readonly string[]).includes(key),
    ),
  );
  const { capacityReservationId: _ended, ...network } = claim.network ?? {
    subnetId: '',
    securityGroupIds: [],
  };
  return {
    ...claim,
    offering: {
      ...claim.offering,
      capacityType: 'on-demand',
      pricePerHour: onDemandPrice(claim, instanceTypes),
    },
    ...(claim.labels === undefined
      ? {}
      : { labels: { ...labels, [Label.capacityType]: 'on-demand' } }),
    ...(claim.network === undefined ? {} : { network }),
  };
}
