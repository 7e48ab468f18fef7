/**
 * Every topology constraint in play during one scheduling pass: the groups pending pods
 * declare, and the inverse anti-affinity of pods that repel others. It answers "which domains
 * may this pod take on this node?" and records each placement so later answers see it
 * (core: pkg/controllers/provisioning/scheduling/topology.go).
 */

import type { Labels } from '../../label-selector.ts';
import { Label } from '../../labels.ts';
import { isTerminal, type Pod } from '../../pod.ts';
import {
  has,
  intersect,
  isEmpty,
  type Requirement,
  requirement,
} from '../../requirements/requirement.ts';
import { get, type Requirements } from '../../requirements/requirements.ts';
import type { Taint } from '../../taints.ts';
import type { Preferences } from '../preferences.ts';
import { filterMatchesNode, filterMatchesRequirements } from './node-filter.ts';
import { TopologyGroup, type TopologyGroupSpec } from './topology-group.ts';
import {
  groupKey,
  inverseGroupSpecs,
  type NamespaceLabels,
  ownedGroupSpecs,
} from './topology-groups-of.ts';
import type { TopologyUniverse } from './universe.ts';

/** The domains of one key a pod could take now (TopologyGroup.eligibleDomains). */
export interface DomainRestriction {
  readonly key: string;
  readonly domains: readonly string[];
}

/**
 * The restrictions with only the domains the pod's requirements allow: what `nodeAllows` then
 * holds each node to. Worked out once per pod, not once per node it is offered.
 */
export function narrowedToPod(
  restrictions: readonly DomainRestriction[],
  podRequirements: Requirements,
): DomainRestriction[] {
  return restrictions.map(({ key, domains }) => {
    const pod = podRequirements.get(key);
    return { key, domains: pod === undefined ? domains : domains.filter((d) => has(pod, d)) };
  });
}

/** Whether the node allows, for each restriction, one of its domains. */
export function nodeAllows(
  restrictions: readonly DomainRestriction[],
  nodeRequirements: Requirements,
): boolean {
  for (const { key, domains } of restrictions) {
    const node = nodeRequirements.get(key);
    if (node === undefined) {
      if (domains.length === 0) return false;
      continue;
    }
    let allowed = false;
    for (const domain of domains) {
      if (has(node, domain)) {
        allowed = true;
        break;
      }
    }
    if (!allowed) return false;
  }
  return true;
}

/** A test of hosts that, once it blocks a host, blocks it for the rest of the pass. */
export interface LastingHostBlock {
  /** Unique to the group within the pass. */
  readonly id: string;
  readonly blocks: (hostname: string) => boolean;
}

/** The hosts a hostname pod affinity confines a pod to, named by its group. */
export interface HostConfinement {
  /** Unique to the group within the pass. */
  readonly id: string;
  readonly hosts: ReadonlySet<string>;
}

/** A node that already runs pods: where they count. */
export interface PlacedNode {
  readonly name: string;
  readonly labels: Labels;
  readonly taints: readonly Taint[];
}

export interface BoundPod {
  readonly pod: Pod;
  readonly node: PlacedNode;
}

export interface TopologyInput {
  /** Known values per label key: NodePool and instance-type domains plus existing nodes. */
  readonly universe: TopologyUniverse;
  /** Pods already running, excluding those about to move. */
  readonly boundPods: readonly BoundPod[];
  readonly namespaces: NamespaceLabels;
}

interface MatchingGroup {
  readonly group: TopologyGroup;
  readonly selfSelecting: boolean;
}

export type TopologyResult =
  | { readonly ok: true; readonly requirements: Requirements }
  | { readonly ok: false; readonly reason: string };

function domainOf(node: PlacedNode, key: string): string | undefined {
  // Kubelet sets the hostname label late; the node name stands in for it, as in Karpenter.
  return node.labels[key] ?? (key === Label.hostname ? node.name : undefined);
}

/** Whether a hostname-keyed group rules out one host, judged from its count there alone. */
function blocksHost(
  group: TopologyGroup,
  count: number,
  selfSelecting: boolean,
  podConstrainsHostname: boolean,
): boolean {
  switch (group.spec.type) {
    case 'antiAffinity':
      return count > 0;
    case 'spread':
      return count + (selfSelecting ? 1 : 0) > group.spec.maxSkew;
    case 'affinity':
      // Only a host that already has a selected pod qualifies, unless this pod starts the group.
      return count === 0 && !podConstrainsHostname && (group.isOccupied || !selfSelecting);
  }
}

const NO_HOST_BLOCKED = (): boolean => false;

/**
 * An anti-affinity blocks every domain the pod might still land in ("Schrödinger's pod");
 * spreads and affinities only count a decided domain.
 */
function recordPlacement(group: TopologyGroup, domains: Requirement): void {
  if (domains.complement) return;
  if (group.spec.type !== 'antiAffinity' && domains.values.size !== 1) return;
  for (const d of domains.values) group.record(d);
}

export class Topology {
  private readonly groups = new Map<string, TopologyGroup>();
  private readonly inverse = new Map<string, TopologyGroup>();
  private readonly owned = new Map<string, TopologyGroup[]>();
  /** Names for the groups confinement and lastingHostBlock hand out, unique within the pass. */
  private readonly ids = new Map<TopologyGroup, string>();
  /** Every group, declared and inverse, by topology key: a new domain concerns only its key's. */
  private readonly byKey = new Map<string, TopologyGroup[]>();
  private readonly matchingCache = new Map<string, { version: number; groups: MatchingGroup[] }>();
  private inverseVersion = 0;
  /** Domains opened during the pass (new nodes' hostnames), for groups created later. */
  private readonly opened = new Map<string, Set<string>>();
  private readonly input: TopologyInput;

  constructor(input: TopologyInput) {
    this.input = input;
    for (const bound of input.boundPods) this.trackExistingAntiAffinity(bound);
  }

  /** (Re)declares the groups a pending pod owns under its current preferences. */
  update(pod: Pod, prefs: Preferences): void {
    const before = this.owned.get(pod.uid) ?? [];
    const specs = ownedGroupSpecs(pod, prefs, this.input.namespaces);
    // Most pods of a large plan own no group, before or after: nothing to change.
    if (specs.length === 0 && before.length === 0) return;
    for (const group of before) group.owners.delete(pod.uid);
    const groups = specs.map((spec) => this.groupFor(spec));
    for (const group of groups) group.owners.add(pod.uid);
    this.owned.set(pod.uid, groups);
    this.matchingCache.delete(pod.uid);
  }

  /**
   * A cheap early answer for the hostnames a pod is offered: whether a hostname-keyed
   * anti-affinity or spread already rules one out. Most failed placements at scale end here, so
   * the pod's hostname groups are picked out once; the answer holds until the next placement is
   * recorded.
   */
  hostBlocker(pod: Pod, podConstrainsHostname: boolean): (hostname: string) => boolean {
    const groups = this.matching(pod).filter(({ group }) => group.key === Label.hostname);
    if (groups.length === 0) return NO_HOST_BLOCKED;
    return (hostname) => {
      for (const { group, selfSelecting } of groups) {
        const count = group.count(hostname) ?? 0;
        if (blocksHost(group, count, selfSelecting, podConstrainsHostname)) return true;
      }
      return false;
    };
  }

  /**
   * The pod's hostname anti-affinity, if it has one, as a lasting test of hosts: a host it
   * blocks runs a selected pod, and counts only grow, so the host stays blocked. Claims can then
   * be kept apart by it (ClaimsByLoad.findIn) rather than refused one by one.
   */
  lastingHostBlock(pod: Pod): LastingHostBlock | undefined {
    for (const { group } of this.matching(pod)) {
      if (group.key !== Label.hostname || group.spec.type !== 'antiAffinity') continue;
      return { id: this.idOf(group), blocks: (hostname) => (group.count(hostname) ?? 0) > 0 };
    }
    return undefined;
  }

  /**
   * The only hostnames the pod may join, when a hostname pod affinity confines it to the hosts
   * that already run a selected pod (every other host is blocked on host, see blocksHost);
   * undefined when no such affinity binds it. A pod that starts its own group is not confined.
   * The hosts only ever grow, and only as a pod lands on one of them.
   */
  confinement(pod: Pod, podConstrainsHostname: boolean): HostConfinement | undefined {
    if (podConstrainsHostname) return undefined;
    let confining: TopologyGroup | undefined;
    for (const { group, selfSelecting } of this.matching(pod)) {
      if (group.key !== Label.hostname || group.spec.type !== 'affinity') continue;
      if (!group.isOccupied && selfSelecting) continue;
      const size = group.occupiedDomains.size;
      if (confining === undefined || size < confining.occupiedDomains.size) confining = group;
    }
    if (confining === undefined) return undefined;
    return { id: this.idOf(confining), hosts: confining.occupiedDomains };
  }

  /**
   * For each constraint on the pod over a key other than hostname, the domains it could take now
   * under its strict requirements; valid until the next placement is recorded.
   */
  restrictions(pod: Pod, podRequirements: Requirements): DomainRestriction[] {
    const out: DomainRestriction[] = [];
    for (const { group, selfSelecting } of this.matching(pod)) {
      const domains = group.eligibleDomains(selfSelecting, get(podRequirements, group.key));
      if (domains !== undefined) out.push({ key: group.key, domains });
    }
    return out;
  }

  /** Makes a new domain (a new node's hostname) known to every group over that key. */
  register(key: string, domain: string): void {
    const opened = this.opened.get(key) ?? new Set<string>();
    this.opened.set(key, opened);
    opened.add(domain);
    for (const group of this.byKey.get(key) ?? []) group.register(domain);
  }

  /**
   * Narrows the node's requirements to the domains the pod may take there, or says why it
   * may take none. `podRequirements` are the pod's strict requirements.
   */
  addRequirements(
    pod: Pod,
    podRequirements: Requirements,
    nodeRequirements: Requirements,
  ): TopologyResult {
    const groups = this.matching(pod);
    if (groups.length === 0) return { ok: true, requirements: nodeRequirements };
    const narrowed = new Map<string, Requirement>();
    for (const { group, selfSelecting } of groups) {
      const current = narrowed.get(group.key) ?? get(nodeRequirements, group.key);
      const domains = group.next(selfSelecting, get(podRequirements, group.key), current);
      const next = intersect(current, domains);
      if (isEmpty(next)) {
        return {
          ok: false,
          reason: `unsatisfiable topology constraint for ${group.spec.type}, key=${group.key}`,
        };
      }
      narrowed.set(group.key, next);
    }
    const out = new Map(nodeRequirements);
    for (const [key, req] of narrowed) out.set(key, req);
    return { ok: true, requirements: out };
  }

  /** Counts a placed pod in every group that selects it, and tracks its own anti-affinity. */
  record(pod: Pod, nodeRequirements: Requirements, taints: readonly Taint[]): void {
    for (const group of this.groups.values()) {
      if (!group.selects(pod.namespace, pod.labels)) continue;
      if (!filterMatchesRequirements(group.spec.nodeFilter, nodeRequirements, taints)) continue;
      recordPlacement(group, get(nodeRequirements, group.key));
    }
    for (const spec of inverseGroupSpecs(pod, this.input.namespaces)) {
      const group = this.inverseFor(spec);
      const domains = get(nodeRequirements, group.key);
      if (!domains.complement) for (const d of domains.values) group.record(d);
      group.owners.add(pod.uid);
    }
  }

  /**
   * Whether any group constrains the pod or counts it. A pod none does may move between new
   * nodes without changing what any other pod's constraints see (repacking.ts).
   */
  touches(pod: Pod): boolean {
    if (this.groups.size === 0 && this.inverse.size === 0) return false;
    if (this.matching(pod).length > 0) return true;
    for (const group of this.groups.values())
      if (group.selects(pod.namespace, pod.labels)) return true;
    return false;
  }

  /** The groups that constrain a pod: those it owns and the inverse ones that select it. */
  private matching(pod: Pod): readonly MatchingGroup[] {
    const cached = this.matchingCache.get(pod.uid);
    if (cached !== undefined && cached.version === this.inverseVersion) return cached.groups;
    const groups: MatchingGroup[] = (this.owned.get(pod.uid) ?? []).map((group) => ({
      group,
      selfSelecting: group.selects(pod.namespace, pod.labels),
    }));
    for (const group of this.inverse.values()) {
      if (group.selects(pod.namespace, pod.labels)) groups.push({ group, selfSelecting: true });
    }
    this.matchingCache.set(pod.uid, { version: this.inverseVersion, groups });
    return groups;
  }

  private groupFor(spec: TopologyGroupSpec): TopologyGroup {
    const key = groupKey(spec);
    const existing = this.groups.get(key);
    if (existing !== undefined) return existing;
    const group = this.newGroup(spec);
    this.countExisting(group);
    this.groups.set(key, group);
    this.keyed(group);
    return group;
  }

  private inverseFor(spec: TopologyGroupSpec): TopologyGroup {
    const key = groupKey(spec);
    const existing = this.inverse.get(key);
    if (existing !== undefined) return existing;
    const group = this.newGroup(spec);
    this.inverse.set(key, group);
    this.keyed(group);
    this.inverseVersion++;
    return group;
  }

  private idOf(group: TopologyGroup): string {
    let id = this.ids.get(group);
    if (id === undefined) {
      id = `${group.spec.type}#${this.ids.size}`;
      this.ids.set(group, id);
    }
    return id;
  }

  private keyed(group: TopologyGroup): void {
    const same = this.byKey.get(group.key);
    if (same === undefined) this.byKey.set(group.key, [group]);
    else same.push(group);
  }

  private newGroup(spec: TopologyGroupSpec): TopologyGroup {
    const group = new TopologyGroup(spec);
    for (const source of this.input.universe.get(spec.key) ?? []) {
      if (filterMatchesRequirements(spec.nodeFilter, source.requirements, source.taints))
        group.register(source.domain);
    }
    for (const domain of this.opened.get(spec.key) ?? []) group.register(domain);
    return group;
  }

  private countExisting(group: TopologyGroup): void {
    for (const { pod, node } of this.input.boundPods) {
      if (pod.deleting || isTerminal(pod) || !group.selects(pod.namespace, pod.labels)) continue;
      const domain = domainOf(node, group.key);
      if (domain === undefined) continue;
      if (!filterMatchesNode(group.spec.nodeFilter, node.labels, node.taints)) continue;
      group.record(domain);
    }
  }

  private trackExistingAntiAffinity({ pod, node }: BoundPod): void {
    if (pod.deleting || isTerminal(pod)) return;
    for (const spec of inverseGroupSpecs(pod, this.input.namespaces)) {
      const domain = domainOf(node, spec.key);
      const group = this.inverseFor(spec);
      if (domain !== undefined) group.record(domain);
      group.owners.add(pod.uid);
    }
  }
}

/** The hostname requirement a new node claim carries until its real name is known. */
export function hostnamePlaceholder(index: number): Requirements {
  return new Map([
    [
      Label.hostname,
      requirement(Label.hostname, 'In', [`hostname-placeholder-${String(index).padStart(4, '0')}`]),
    ],
  ]);
}
