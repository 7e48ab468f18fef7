/** Shapes the scheduler's working state into the ProvisioningPlan that leaves the domain. */
import { instanceTypeLabels } from '../instance-type.ts';
import type { Labels } from '../label-selector.ts';
import { Label } from '../labels.ts';
import type { LimitBudget } from '../limits/limit-budget.ts';
import { chargeOf } from '../limits/limit-charge.ts';
import type { LimitRefusal } from '../limits/limit-scope.ts';
import { type Pod, podKey } from '../pod.ts';
import { customLabels, type Requirements } from '../requirements/requirements.ts';
import type { ExistingNode } from './existing-node.ts';
import type { FilledNodeClaim } from './filled-node-claim.ts';
import type { InstanceSelection } from './instance-selection.ts';
import type { PendingSelection } from './pending-pods.ts';
import { selectPlaced } from './placed-selection.ts';
import type { PlacementLedger } from './placement-ledger.ts';
import type {
  NodePoolReason,
  PlannedNodeClaim,
  ProvisioningPlan,
  UnschedulablePod,
} from './provisioning-plan.ts';
import { reservationLabels } from './reservation-labels.ts';
import { ReservationLedger } from './reservation-ledger.ts';
import type { PoolUnfit, SchedulerResult } from './scheduler.ts';
import type { SchedulingPod } from './scheduling-pod.ts';
import { isUnfit, type Unfit } from './unfit.ts';

export interface PlanParts {
  readonly selection: PendingSelection;
  readonly volumeFailures: readonly { readonly pod: Pod; readonly reason: string }[];
  readonly pods: readonly SchedulingPod[];
  readonly existing: readonly ExistingNode[];
  readonly result: SchedulerResult;
  readonly region: string | undefined;
  /**
   * The limits as they stood before the plan: each claim is counted again at the offering it
   * launches on, and one that would pass a limit is dropped, so no plan ever exceeds one.
   */
  readonly limits: LimitBudget;
  /** Where the cluster's cluster and spread placement groups run, which each claim adds to. */
  readonly placements: PlacementLedger;
}

/** The claim counted against the limits as launched; undefined when it fits, else why not. */
function overLimit(limits: LimitBudget, planned: PlannedNodeClaim): LimitRefusal | undefined {
  if (!limits.isLimited(planned.nodePool)) return undefined;
  const charge = limits.vector(
    chargeOf(planned.instanceType.capacity, planned.offering.pricePerHour),
  );
  const refusal = limits.refusal(planned.nodePool, charge);
  if (refusal === undefined) limits.take(planned.nodePool, charge);
  return refusal;
}

function nodeLabels(
  claim: FilledNodeClaim,
  selection: InstanceSelection,
  region: string | undefined,
): Labels {
  const first = selection.options[0];
  const offering = first?.offering;
  const labels: Record<string, string> = {
    ...(first === undefined ? {} : instanceTypeLabels(first.instanceType)),
    ...customLabels(selection.requirements),
    ...claim.template.labels,
    [Label.nodeClass]: claim.template.nodePool.spec.template.spec.nodeClassRef.name,
  };
  if (offering !== undefined) {
    labels[Label.zone] = offering.zone;
    labels[Label.capacityType] = offering.capacityType;
    if (offering.zoneId !== undefined) labels[Label.zoneId] = offering.zoneId;
    Object.assign(labels, reservationLabels(offering));
    if (offering.partition !== undefined)
      labels[Label.placementGroupPartition] = offering.partition;
  }
  if (region !== undefined) labels[Label.region] = region;
  delete labels[Label.hostname];
  return Object.fromEntries(
    Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
}

/** The claim's requirements without the placeholder hostname (the options are listed apart). */
function claimRequirements(selection: InstanceSelection): Requirements {
  const out = new Map(selection.requirements);
  out.delete(Label.hostname);
  return out;
}

/** A filled claim as a launch decision; undefined when no option is left. */
export function plannedClaim(
  claim: FilledNodeClaim,
  name: string,
  selection: InstanceSelection,
  region: string | undefined,
): PlannedNodeClaim | undefined {
  const first = selection.options[0];
  if (first === undefined) return undefined;
  return {
    name,
    nodePool: claim.template.name,
    nodeClass: claim.template.nodePool.spec.template.spec.nodeClassRef.name,
    instanceType: first.instanceType,
    offering: first.offering,
    instanceTypeOptions: selection.instanceTypes,
    requirements: claimRequirements(selection),
    labels: nodeLabels(claim, selection, region),
    taints: claim.template.taints,
    startupTaints: claim.template.startupTaints,
    pods: claim.pods.map((p) => podKey(p.pod)),
    requests: claim.requests,
  };
}

/**
 * Each reason prefixed with its pool, save a limit's, which names what it limits itself (so the
 * cluster's limit, stopping every pool, is said once).
 */
function reasonText(reasons: readonly NodePoolReason[]): string {
  const texts = reasons.map((r) =>
    r.nodePool === undefined || r.code === 'Limits'
      ? r.message
      : `nodepool "${r.nodePool}": ${r.message}`,
  );
  return [...new Set(texts)].join('; ');
}

function fromFailures(failures: readonly PoolUnfit[]): NodePoolReason[] {
  return failures.map((f) => ({
    ...(f.nodePool === undefined ? {} : { nodePool: f.nodePool }),
    code: f.code,
    message: f.reason,
    ...(f.limit === undefined ? {} : { limit: f.limit }),
  }));
}

function unschedulable(pod: Pod, reasons: readonly NodePoolReason[]): UnschedulablePod {
  return { pod: podKey(pod), reason: reasonText(reasons), reasons };
}

/** Why a filled claim is not planned: its placement group's rule, else no offering left. */
function refusalOf(claim: FilledNodeClaim, refused: Unfit | undefined): NodePoolReason {
  const nodePool = claim.template.name;
  return refused === undefined
    ? {
        nodePool,
        code: 'Offerings',
        message: 'no available offering is left for the instance types that fit',
      }
    : { nodePool, code: refused.code, message: refused.reason };
}

type Selection = InstanceSelection | Unfit | undefined;

/** What a claim's launch is chosen from, and the selections already made for claims alike. */
interface SelectionContext {
  readonly ledger: ReservationLedger;
  readonly alike: Map<object, Selection>;
}

/** The claim's instance selection within the plan's ledgers, made once for claims alike. */
function selectionOf(parts: PlanParts, claim: FilledNodeClaim, context: SelectionContext) {
  const key = claim.alike;
  if (key !== undefined && context.alike.has(key)) return context.alike.get(key);
  const selection = selectPlaced({
    template: claim.template,
    requirements: claim.requirements,
    isOpen: (i) => claim.isOpen(i),
    ledger: context.ledger,
    placements: parts.placements,
  });
  if (key !== undefined) context.alike.set(key, selection);
  return selection;
}

/** The claim's launch decision within the plan's ledgers, or why it has none. */
function placedClaim(
  parts: PlanParts,
  claim: FilledNodeClaim,
  name: string,
  context: SelectionContext,
): PlannedNodeClaim | NodePoolReason {
  const selection = selectionOf(parts, claim, context);
  if (selection === undefined || isUnfit(selection)) return refusalOf(claim, selection);
  const planned = plannedClaim(claim, name, selection, parts.region);
  if (planned === undefined) return refusalOf(claim, undefined);
  const refusal = overLimit(parts.limits, planned);
  if (refusal === undefined) return planned;
  return { nodePool: planned.nodePool, code: 'Limits', message: refusal.message, limit: refusal };
}

function plannedClaims(parts: PlanParts): {
  nodeClaims: PlannedNodeClaim[];
  failed: UnschedulablePod[];
} {
  const nodeClaims: PlannedNodeClaim[] = [];
  const failed: UnschedulablePod[] = [];
  const perPool = new Map<string, number>();
  // The pools claims were opened from, each pool once.
  const ledger = new ReservationLedger(new Set(parts.result.newClaims.map((c) => c.template)));
  const context: SelectionContext = { ledger, alike: new Map() };
  for (const claim of parts.result.newClaims) {
    const index = perPool.get(claim.template.name) ?? 0;
    const planned = placedClaim(parts, claim, `${claim.template.name}-${index}`, context);
    if ('code' in planned) {
      for (const pod of claim.pods) failed.push(unschedulable(pod.pod, [planned]));
      continue;
    }
    perPool.set(claim.template.name, index + 1);
    nodeClaims.push(planned);
  }
  return { nodeClaims, failed };
}

function unplaced(parts: PlanParts): UnschedulablePod[] {
  // The scheduler places the very objects it was given, so they are told apart by identity.
  const placed = new Set<SchedulingPod>();
  for (const { pods } of [...parts.result.newClaims, ...parts.existing])
    for (const pod of pods) placed.add(pod);
  const failed = parts.pods
    .filter((pod) => !placed.has(pod))
    .map((pod) => {
      const failures = parts.result.failures.get(pod.uid) ?? [];
      return unschedulable(
        pod.pod,
        failures.length > 0
          ? fromFailures(failures)
          : [{ code: 'Topology', message: 'no placement found' }],
      );
    });
  for (const { pod, reason } of parts.volumeFailures)
    failed.push(unschedulable(pod, [{ code: 'Volumes', message: reason }]));
  for (const { pod, reason } of parts.selection.ignored)
    failed.push(unschedulable(pod, [{ code: 'Ignored', message: reason }]));
  return failed;
}

export function assemblePlan(parts: PlanParts): ProvisioningPlan {
  const { nodeClaims, failed } = plannedClaims(parts);
  const existingNodes = parts.existing
    .filter((n) => n.pods.length > 0)
    .map((n) => ({ name: n.name, pods: n.pods.map((p) => podKey(p.pod)) }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return {
    nodeClaims,
    existingNodes,
    unschedulable: [...failed, ...unplaced(parts)].sort((a, b) =>
      a.pod < b.pod ? -1 : a.pod > b.pod ? 1 : 0,
    ),
    pendingPods: parts.selection.pending.length + parts.selection.ignored.length,
  };
}
