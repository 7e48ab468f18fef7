/**
 * The claim a static NodePool launches: its template and nothing else — no pod narrows it — on
 * the cheapest compatible offering (core: static/provisioning/controller.go builds it with
 * `scheduling.NewNodeClaimTemplate`, and the cloud provider launches the cheapest of every type
 * the template allows). Static drift launches the same claim as a drifted node's replacement.
 * A reserved claim is pinned to one reservation and counted in the ledger the caller shares
 * between its claims, as a dynamic plan's are (reserved-selection.ts): Karpenter's launches take
 * from the same reservation counts whichever controller made the claim (aws:
 * pkg/providers/capacityreservation, `MarkLaunched`), so static claims never over-fill one.
 * A claim of a cluster or spread placement group is pinned to a zone the group leaves open, as
 * a dynamic plan's is (placed-selection.ts).
 */
import type { DaemonSet } from '../daemon-set.ts';
import type { InstanceType } from '../instance-type.ts';
import type { NodePool } from '../node-pool.ts';
import { NewNodeClaim } from '../scheduling/new-node-claim.ts';
import { selectPlaced } from '../scheduling/placed-selection.ts';
import { PlacementLedger } from '../scheduling/placement-ledger.ts';
import { plannedClaim } from '../scheduling/plan-assembly.ts';
import type { PlannedNodeClaim } from '../scheduling/provisioning-plan.ts';
import { ReservationLedger } from '../scheduling/reservation-ledger.ts';
import { cachedNodeClaimTemplate } from '../scheduling/template-cache.ts';
import { isUnfit, type Unfit } from '../scheduling/unfit.ts';

export interface StaticClaimInput {
  readonly nodePool: NodePool;
  /** The instance types the pool may use, priced and marked available. */
  readonly instanceTypes: readonly InstanceType[];
  /** Their overhead decides which types have room left for anything. */
  readonly daemonSets: readonly DaemonSet[];
  readonly region?: string | undefined;
}

/** What the static claims of one plan share: the reservations and placement groups they fill. */
export interface StaticLedgers {
  readonly reservations: ReservationLedger;
  readonly placements: PlacementLedger;
}

export function staticLedgers(placements = new PlacementLedger()): StaticLedgers {
  return { reservations: new ReservationLedger(), placements };
}

/**
 * The pool's claim, named `<pool>-<index>`; undefined when no offering is available, the
 * placement group's refusal when its group leaves none. Its reservation and zone are taken from
 * `ledgers`.
 */
export function staticNodeClaim(
  input: StaticClaimInput,
  index = 0,
  ledgers = staticLedgers(),
): PlannedNodeClaim | Unfit | undefined {
  const template = cachedNodeClaimTemplate(input);
  if (template.options.length === 0) return undefined;
  ledgers.reservations.count(template);
  const claim = new NewNodeClaim({ template, index });
  const selection = selectPlaced({
    template,
    requirements: claim.requirements,
    isOpen: (i) => claim.isOpen(i),
    ledger: ledgers.reservations,
    placements: ledgers.placements,
  });
  if (selection === undefined || isUnfit(selection)) return selection;
  return plannedClaim(claim, `${template.name}-${index}`, selection, input.region);
}
