/**
 * The one entry point to scheduling: pending pods, the cluster's nodes and NodePools and the
 * instance types each pool can use in, a ProvisioningPlan out. Pure and deterministic: the
 * same snapshot gives the same plan (docs/design.md §5.5). Provisioning, consolidation and the
 * API's dry run all call this.
 */

import type { ClusterSnapshot } from '../cluster-snapshot.ts';
import { type Condition, reportedNotReady } from '../condition.ts';
import type { InstanceType } from '../instance-type.ts';
import type { Labels } from '../label-selector.ts';
import { LimitBudget } from '../limits/limit-budget.ts';
import type { PoolCharge } from '../limits/limit-charge.ts';
import { limitScopes } from '../limits/limit-scope.ts';
import { planningCharges } from '../limits/planning-charges.ts';
import type { Node } from '../node.ts';
import type { EC2NodeClass } from '../node-class.ts';
import { byWeight, isStatic, type NodePool } from '../node-pool.ts';
import type { Pod } from '../pod.ts';
import { NODE_CLASS_NOT_FOUND, nodeClassNotFoundMessage } from '../pools/node-class-not-found.ts';
import { parseResources } from '../resources.ts';
import { ExistingNode } from './existing-node.ts';
import type { NodeClaimTemplate } from './node-claim-template.ts';
import { selectPending } from './pending-pods.ts';
import { memberLabels, placementLedger } from './placement-ledger.ts';
import { assemblePlan } from './plan-assembly.ts';
import { podRequests } from './pod-requests.ts';
import type { ProvisioningPlan } from './provisioning-plan.ts';
import { type PoolUnfit, Scheduler } from './scheduler.ts';
import { SchedulingPod } from './scheduling-pod.ts';
import { type StateNode, stateNodes } from './state-nodes.ts';
import { cachedNodeClaimTemplate } from './template-cache.ts';
import { type BoundPod, Topology } from './topology/topology.ts';
import { topologyUniverse } from './topology/universe.ts';
import { type Unfit, unfit } from './unfit.ts';
import { volumeCatalog, volumeTopology } from './volume-topology.ts';

/** The kinds of the snapshot (cluster-snapshot.ts) every plan reads. */
type ReadKinds = 'pods' | 'nodes' | 'nodeClaims' | 'nodePools' | 'daemonSets';

/**
 * The kinds a plan does without when they are absent (a unit test's input, the simulated
 * kube-scheduler's). EC2NodeClasses are read for their Ready condition: a pool whose class is not
 * ready launches nothing. The cluster's limits cap every pool together (`nodes`, resources,
 * `nodesmith.io/hourly-cost`).
 */
type OptionalKinds =
  | 'nodeClasses'
  | 'persistentVolumeClaims'
  | 'persistentVolumes'
  | 'storageClasses'
  | 'runtimeClasses'
  | 'clusterLimits';

/** A snapshot's objects (`planningInput` makes this from one) and how to plan them. */
export interface ProvisioningInput
  extends Pick<ClusterSnapshot, ReadKinds>,
    Partial<Pick<ClusterSnapshot, OptionalKinds>> {
  /** The instance types each NodePool may use, by pool name (already priced and marked available). */
  readonly instanceTypes: ReadonlyMap<string, readonly InstanceType[]>;
  /** Each namespace's labels by name, which pod affinity's namespace selectors match. */
  readonly namespaces?: ReadonlyMap<string, Labels>;
  readonly region?: string;
  /** The controller acts only on pods kube-scheduler gave up on; a what-if plan takes every pending pod. */
  readonly requireUnschedulableMark?: boolean;
  /** `Ignore` drops preferences up front, as Karpenter's `--preference-policy Ignore`. */
  readonly preferencePolicy?: 'Respect' | 'Ignore';
  /**
   * What the existing nodes and claims count against limits. The controller passes its
   * records' (priced as launched); without them the snapshot's are priced from the catalog.
   */
  readonly limitCharges?: readonly PoolCharge[];
  /** The controller's time box (see SchedulerInput.outOfTime); a what-if plan has none. */
  readonly outOfTime?: () => boolean;
}

/** The limits with what the snapshot's nodes and claims use of them: one for the scheduler, one to check its claims. */
function limitBudgets(input: ProvisioningInput): [LimitBudget, LimitBudget] {
  const scopes = limitScopes(input);
  if (scopes.length === 0) return [new LimitBudget([], []), new LimitBudget([], [])];
  const charges = input.limitCharges ?? planningCharges(input);
  return [new LimitBudget(scopes, charges), new LimitBudget(scopes, charges)];
}

/**
 * Why a NodePool cannot launch now: it is being deleted (Karpenter leaves such pools out before
 * scheduling: core provisioner.go, NewScheduler; their nodes still count as capacity), or it or
 * its EC2NodeClass reports Ready=False.
 */
export function launchBlocker(
  pool: NodePool,
  nodeClasses: readonly EC2NodeClass[],
): Unfit | undefined {
  if (pool.metadata.deletionTimestamp !== undefined) {
    return unfit('Deleting', 'NodePool is being deleted');
  }
  const reason = notReadyReason(pool, nodeClasses);
  return reason === undefined ? undefined : unfit('NotReady', reason);
}

/** The pool's own Ready=False; a missing class is named, so the pod's event says what to apply. */
function poolNotReady(pool: NodePool, own: Condition): string {
  const why = `NodePool is not ready${own.reason ? ` (${own.reason})` : ''}`;
  return own.reason === NODE_CLASS_NOT_FOUND ? `${why}: ${nodeClassNotFoundMessage(pool)}` : why;
}

function notReadyReason(pool: NodePool, nodeClasses: readonly EC2NodeClass[]): string | undefined {
  const own = reportedNotReady(pool.status);
  if (own !== undefined) return poolNotReady(pool, own);
  const className = pool.spec.template.spec.nodeClassRef.name;
  const nodeClass = nodeClasses.find((c) => c.metadata.name === className);
  const classState = reportedNotReady(nodeClass?.status);
  if (classState !== undefined)
    return `EC2NodeClass "${className}" is not ready${classState.reason ? ` (${classState.reason})` : ''}`;
  return undefined;
}

/**
 * A static pool launches its own count of nodes and never for pods (core: provisioner.go,
 * NewScheduler leaves static pools out); pods still land on its nodes once they exist.
 */
const STATIC_POOL = unfit(
  'Static',
  'NodePool is static (replicas set): it keeps its own node count and launches none for pods',
);

function templatesFor(input: ProvisioningInput): {
  templates: NodeClaimTemplate[];
  skipped: PoolUnfit[];
} {
  const templates: NodeClaimTemplate[] = [];
  const skipped: PoolUnfit[] = [];
  for (const nodePool of [...input.nodePools].sort(byWeight)) {
    const blocker = isStatic(nodePool)
      ? STATIC_POOL
      : launchBlocker(nodePool, input.nodeClasses ?? []);
    if (blocker !== undefined) {
      skipped.push({ ...blocker, nodePool: nodePool.metadata.name });
      continue;
    }
    const template = cachedNodeClaimTemplate({
      nodePool,
      instanceTypes: input.instanceTypes.get(nodePool.metadata.name) ?? [],
      daemonSets: input.daemonSets,
    });
    if (template.options.length > 0) templates.push(template);
  }
  return { templates, skipped };
}

const NO_POOLS = { templates: [], skipped: [] } as const;

interface PreparedPods {
  readonly pods: SchedulingPod[];
  readonly volumeFailures: { readonly pod: Pod; readonly reason: string }[];
}

/** Requests, volume topology and preferences of each pending pod, computed once. */
function preparePods(input: ProvisioningInput, pending: readonly Pod[]): PreparedPods {
  const volumes = volumeCatalog(
    input.persistentVolumeClaims ?? [],
    input.persistentVolumes ?? [],
    input.storageClasses ?? [],
  );
  const overheads = new Map(
    (input.runtimeClasses ?? []).map((rc) => [rc.name, parseResources(rc.overhead?.podFixed)]),
  );
  const prepared: PreparedPods = { pods: [], volumeFailures: [] };
  for (const pod of pending) {
    const topology = volumeTopology(volumes, pod);
    if (!topology.ok) {
      prepared.volumeFailures.push({ pod, reason: topology.reason });
      continue;
    }
    const runtimeClass = pod.spec.runtimeClassName;
    const runtime = runtimeClass === undefined ? undefined : overheads.get(runtimeClass);
    const requests = podRequests(pod, runtime);
    const ignorePreferences = input.preferencePolicy === 'Ignore';
    prepared.pods.push(
      new SchedulingPod({ pod, requests, volumes: topology.requirements, ignorePreferences }),
    );
  }
  return prepared;
}

/** Pods running on live nodes: where they are counts for topology. */
function boundPodsOf(input: ProvisioningInput, pending: readonly Pod[]): BoundPod[] {
  const pendingKeys = new Set(pending.map((p) => p.uid));
  const nodesByName = new Map(input.nodes.filter((n) => !n.deleting).map((n) => [n.name, n]));
  return input.pods.flatMap((pod) => {
    if (pod.nodeName === undefined || pendingKeys.has(pod.uid)) return [];
    const node = nodesByName.get(pod.nodeName);
    return node === undefined ? [] : [{ pod, node }];
  });
}

/**
 * The parts of a plan that depend only on the pools, their instance types, the daemons and the
 * live nodes: what consolidation, which plans many "what if these nodes went?" variants of one
 * snapshot, computes once and hands to each.
 */
export interface PreparedScheduling {
  readonly templates: readonly NodeClaimTemplate[];
  readonly skipped: readonly PoolUnfit[];
  /** Every state node of the snapshot, none left out as deleting. */
  readonly nodes: readonly StateNode[];
}

export function prepareScheduling(input: ProvisioningInput): PreparedScheduling {
  const { templates, skipped } = templatesFor(input);
  const nodes = stateNodes({ ...input, nodes: input.nodes.map(notDeleting) });
  return { templates, skipped, nodes };
}

function notDeleting(node: Node): Node {
  return node.deleting ? { ...node, deleting: false } : node;
}

/** The prepared state nodes less those the input marks as being deleted. */
function liveStateNodes(input: ProvisioningInput, prepared: PreparedScheduling): StateNode[] {
  const deleting = new Set(input.nodes.filter((n) => n.deleting).map((n) => n.name));
  if (deleting.size === 0) return [...prepared.nodes];
  return prepared.nodes.filter((n) => !deleting.has(n.input.name));
}

/**
 * `prepared` must come from `prepareScheduling` over the same pools, instance types, daemons,
 * claims and nodes; the input may then mark some of those nodes deleting and move their pods.
 */
export function planProvisioning(
  input: ProvisioningInput,
  prepared?: PreparedScheduling,
): ProvisioningPlan {
  const selection = selectPending(input.pods, input.nodes, input.requireUnschedulableMark ?? false);
  const { pods, volumeFailures } = preparePods(input, selection.pending);
  const nodes = prepared === undefined ? stateNodes(input) : liveStateNodes(input, prepared);
  // A quiet pass has no pod to place: the pools' templates, the costliest part, are not needed.
  const { templates, skipped } = prepared ?? (pods.length === 0 ? NO_POOLS : templatesFor(input));
  const boundPods = boundPodsOf(input, selection.pending);
  const constrained = [...pods.map((p) => p.pod), ...boundPods.map((b) => b.pod)];
  const topology = new Topology({
    universe: topologyUniverse(
      templates,
      nodes.map((n) => n.input),
      constrained,
    ),
    boundPods,
    namespaces: input.namespaces ?? new Map(),
  });
  const existing = nodes.map((n) => new ExistingNode(n.input));
  const [budget, limits] = limitBudgets(input);
  const result = new Scheduler({
    pods,
    existingNodes: existing,
    templates,
    topology,
    budget,
    skipped,
    canToleratePreferNoSchedule: templates.some((t) =>
      t.taints.some((taint) => taint.effect === 'PreferNoSchedule'),
    ),
    ...(input.outOfTime === undefined ? {} : { outOfTime: input.outOfTime }),
  }).solve();
  return assemblePlan({
    selection,
    volumeFailures,
    pods,
    existing,
    result,
    region: input.region,
    limits,
    // Every node and claim counts, those being deleted too: their instances run until replaced.
    placements: placementLedger(templates, () => memberLabels(input)),
  });
}
