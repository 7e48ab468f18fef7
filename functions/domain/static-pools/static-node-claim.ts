/**
 * The claim a static NodePool launches: its template and nothing else — no pod narrows it — on
 * the cheapest compatible offering (core: static/provisioning/controller.go builds it with
 * `scheduling.NewNodeClaimTemplate`, and the cloud provider launches the cheapest of every type
 * the template allows). Static drift launches the same claim as a drifted node's replacement.
 * A reserved claim is pinned to one reservation and counted in the ledger the caller shares
 * between its claims, as a dynamic plan's are (reserved-selection.ts): Karpenter's launches take
 * from the same reservation counts whichever controller made the claim (aws:
 * pkg/providers/capacityreservation, `MarkLaunched`), so static claims never over-fill one.
 */
import type { DaemonSet } from '../daemon-set.ts';
import type { InstanceType } from '../instance-type.ts';
import type { NodePool } from '../node-pool.ts';
import { NewNodeClaim } from '../scheduling/new-node-claim.ts';
import { plannedClaim } from '../scheduling/plan-assembly.ts';
import type { PlannedNodeClaim } from '../scheduling/provisioning-plan.ts';
import { ReservationLedger } from '../scheduling/reservation-ledger.ts';
import { selectReserving } from '../scheduling/reserved-selection.ts';
import { cachedNodeClaimTemplate } from '../scheduling/template-cache.ts';

export interface StaticClaimInput {
  readonly nodePool: NodePool;
  /** The instance types the pool may use, priced and marked available. */
  readonly instanceTypes: readonly InstanceType[];
  /** Their overhead decides which types have room left for anything. */
  readonly daemonSets: readonly DaemonSet[];
  readonly region?: string | undefined;
}

/**
 * The pool's claim, named `<pool>-<index>`; undefined when no offering is available. Its
 * reservation, if any, is taken from `ledger`.
 */
export function staticNodeClaim(
  input: StaticClaimInput,
  index = 0,
  ledger = new ReservationLedger(),
): PlannedNodeClaim | undefined {
  const template = cachedNodeClaimTemplate(input);
  if (template.options.length === 0) return undefined;
  ledger.count(template);
  const claim = new NewNodeClaim({ template, index });
  const selection = selectReserving({
    template,
    requirements: claim.requirements,
    isOpen: (i) => claim.isOpen(i),
    ledger,
  });
  const name = `${template.name}-${index}`;
  return selection && plannedClaim(claim, name, selection, input.region);
}
