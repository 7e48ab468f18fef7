/**
 * The cluster's capacity as the scheduler sees it (core: pkg/controllers/state/statenode.go):
 * every node that is not being deleted, and every launched NodeClaim whose node has not joined
 * yet. A managed node (a `karpenter.sh/nodepool` label and a matching NodeClaim) that is not
 * initialized yet does not block pods with its startup or known ephemeral taints.
 */

import { claimIndex, podsByNode } from '../by-node.ts';
import type { ClusterSnapshot } from '../cluster-snapshot.ts';
import {
  type DaemonSet,
  daemonPod,
  daemonTerms,
  daemonTolerates,
  isDaemonPodOf,
} from '../daemon-set.ts';
import type { Labels } from '../label-selector.ts';
import { Label } from '../labels.ts';
import type { Node } from '../node.ts';
import { hasCondition, type NodeClaim } from '../node-claim.ts';
import type { NodePool } from '../node-pool.ts';
import { isTerminal, type Pod } from '../pod.ts';
import {
  add as addRequirements,
  fromLabels,
  fromNodeSelector,
  labelsSatisfy,
  type Requirements,
} from '../requirements/requirements.ts';
import { add, parseResources, type Resources } from '../resources.ts';
import {
  isKnownEphemeralTaint,
  matchTaint,
  sameTaint,
  type Taint,
  type Toleration,
} from '../taints.ts';
import type { ExistingNodeInput } from './existing-node.ts';
import { podRequests } from './pod-requests.ts';

const CORDONED: Taint = { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' };
const _PREFER_NO_SCHEDULE: Toleration = { operator: 'Exists', effect: 'PreferNoSchedule' };

export interface StateNode {
  readonly input: ExistingNodeInput;
  /**
   * What orders it among the others: its claim's name while it has one, so a claim keeps its
   * place when its node joins under another name and the same pods are placed the same way.
   */
  readonly orderKey: string;
  readonly nodePool?: string;
  readonly initialized: boolean;
  /** Capacity counted against the pool's limits. */
  readonly capacity: Resources;
}

/** The parts of the snapshot capacity is read from. */
export type StateNodeSources = Pick<
  ClusterSnapshot,
  'nodes' | 'nodeClaims' | 'nodePools' | 'pods' | 'daemonSets'
>;

function effectiveTaints(
  node: Node,
  claim: NodeClaim | undefined,
  initialized: boolean,
  pool?: NodePool,
): Taint[] {
  // Until a managed node is initialized its startup and known ephemeral taints are expected to
  // go (core state/statenode.go, Taints); afterwards the same taint means what it says.
  const startup = claim?.spec.startupTaints ?? pool?.spec.template.spec.startupTaints ?? [];
  const booting = claim !== undefined && !initialized;
  const ignorable = (t: Taint) =>
    booting && (isKnownEphemeralTaint(t) || startup.some((s) => matchTaint(s, t)));
  const taints = node.taints.filter((t) => !ignorable(t));
  if (node.unschedulable && !taints.some((t) => sameTaint(t, CORDONED))) taints.push(CORDONED);
  return taints;
}

/** Daemons that belong on a node but have no pod there yet: room the node must keep for them. */
function pendingDaemons(
  labels: Labels,
  taints: readonly Taint[],
  bound: readonly Pod[],
  daemonSets: readonly DaemonSet[],
): Resources {
  const missing = daemonSets.filter(
    (ds) =>
      daemonTolerates(ds, taints) &&
      daemonTerms(ds).some((term) => labelsSatisfy(labels, term)) &&
      !bound.some((pod) => isDaemonPodOf(ds, pod)),
  );
  return add(...missing.map((ds) => podRequests(daemonPod(ds))));
}

/**
 * A node's labels with its hostname, and as requirements: worked out once per node, which a pass
 * plans with many times (provisioning, then each disruption simulation).
 */
const labelled = new WeakMap<Node, { labels: Labels; requirements: Requirements }>();

function labelsOf(node: Node): { labels: Labels; requirements: Requirements } {
  let known = labelled.get(node);
  if (known === undefined) {
    const labels = { [Label.hostname]: node.name, ...node.labels };
    known = { labels, requirements: fromLabels(labels) };
    labelled.set(node, known);
  }
  return known;
}

function fromNode(
  node: Node,
  sources: StateNodeSources,
  bound: readonly Pod[],
  joinedClaim: NodeClaim | undefined,
): StateNode {
  const claim = node.labels[Label.nodePool] !== undefined ? joinedClaim : undefined;
  const poolName = node.labels[Label.nodePool];
  const pool = sources.nodePools.find((p) => p.metadata.name === poolName);
  const initialized =
    claim === undefined ||
    node.labels[Label.initialized] === 'true' ||
    hasCondition(claim, 'Initialized');
  const taints = effectiveTaints(node, claim, initialized, pool);
  const { labels, requirements } = labelsOf(node);
  const input: ExistingNodeInput = {
    name: node.name,
    requirements,
    taints,
    allocatable: node.allocatable,
    boundPods: bound,
    // Terminating pods hold their resources until they are gone, as Karpenter counts them.
    boundRequests: add(...bound.map((p) => podRequests(p))),
    pendingDaemons: pendingDaemons(labels, taints, bound, sources.daemonSets),
  };
  const orderKey = claim?.metadata.name ?? node.name;
  return poolName === undefined
    ? { input, orderKey, initialized, capacity: node.capacity }
    : { input, orderKey, nodePool: poolName, initialized, capacity: node.capacity };
}

/** A NodeClaim that is launching: its predicted capacity stands in for the node to come. */
function fromInFlightClaim(claim: NodeClaim, sources: StateNodeSources): StateNode {
  const labels = { [Label.hostname]: claim.metadata.name, ...claim.metadata.labels };
  const requirements = addRequirements(
    fromNodeSelector(claim.spec.requirements),
    fromLabels(labels),
  );
  const input: ExistingNodeInput = {
    name: claim.metadata.name,
    requirements,
    taints: claim.spec.taints ?? [],
    allocatable: parseResources(claim.status?.allocatable),
    boundPods: [],
    boundRequests: {},
    pendingDaemons: pendingDaemons(labels, claim.spec.taints ?? [], [], sources.daemonSets),
  };
  const pool = claim.metadata.labels?.[Label.nodePool];
  const capacity = parseResources(claim.status?.capacity);
  const orderKey = claim.metadata.name;
  return pool === undefined
    ? { input, orderKey, initialized: false, capacity }
    : { input, orderKey, nodePool: pool, initialized: false, capacity };
}

export function stateNodes(sources: StateNodeSources): StateNode[] {
  const byNode = podsByNode(sources.pods, (pod) => !isTerminal(pod));
  const claimOf = claimIndex(sources.nodeClaims);
  const live = sources.nodes.filter((n) => !n.deleting);
  const joined = new Set(sources.nodes.map(claimOf).filter((c) => c !== undefined));
  const inFlight = sources.nodeClaims.filter(
    (c) =>
      !joined.has(c) &&
      c.metadata.deletionTimestamp === undefined &&
      c.status?.allocatable !== undefined,
  );
  const out = [
    ...live.map((n) => fromNode(n, sources, byNode.get(n.name) ?? [], claimOf(n))),
    ...inFlight.map((c) => fromInFlightClaim(c, sources)),
  ];
  // Initialized nodes first (pods land there soonest), then by name for a stable order.
  return out.sort(
    (a, b) =>
      Number(b.initialized) - Number(a.initialized) ||
      (a.orderKey < b.orderKey ? -1 : a.orderKey > b.orderKey ? 1 : 0),
  );
}
