/**
 * One topology constraint shared by every pod that declares it identically: a spread, a pod
 * affinity or a pod anti-affinity over one topology key, with the number of matching pods in
 * each domain (core: pkg/controllers/provisioning/scheduling/topologygroup.go).
 *
 * Domains are visited in sorted order wherever Karpenter iterates a Go map, so ties resolve
 * the same way on every run.
 */

import { type LabelSelector, type Labels, selectorMatches } from '../../label-selector.ts';
import { Label } from '../../labels.ts';
import { has, type Requirement, requirement } from '../../requirements/requirement.ts';
import type { NodeFilter } from './node-filter.ts';

function isUnbounded(req: Requirement): boolean {
  return (
    req.complement &&
    req.values.size === 0 &&
    req.greaterThan === undefined &&
    req.lessThan === undefined
  );
}

export type TopologyType = 'spread' | 'affinity' | 'antiAffinity';

export interface TopologyGroupSpec {
  readonly type: TopologyType;
  readonly key: string;
  readonly namespaces: ReadonlySet<string> | 'all';
  readonly selector: LabelSelector | undefined;
  readonly maxSkew: number;
  readonly minDomains?: number;
  readonly nodeFilter: NodeFilter;
}

export class TopologyGroup {
  readonly spec: TopologyGroupSpec;
  readonly owners = new Set<string>();
  private readonly counts = new Map<string, number>();
  private readonly occupied = new Set<string>();
  private sortedCache: string[] | undefined;

  constructor(spec: TopologyGroupSpec) {
    this.spec = spec;
  }

  get key(): string {
    return this.spec.key;
  }

  selects(namespace: string, labels: Labels): boolean {
    const { namespaces, selector } = this.spec;
    if (namespaces !== 'all' && !namespaces.has(namespace)) return false;
    return selectorMatches(selector, labels);
  }

  register(domain: string): void {
    if (this.counts.has(domain)) return;
    this.counts.set(domain, 0);
    this.sortedCache = undefined;
  }

  record(domain: string): void {
    const before = this.counts.get(domain);
    if (before === undefined) this.sortedCache = undefined;
    if (!before) this.occupied.add(domain);
    this.counts.set(domain, (before ?? 0) + 1);
  }

  count(domain: string): number | undefined {
    return this.counts.get(domain);
  }

  /** Whether any domain holds a selected pod. */
  get isOccupied(): boolean {
    return this.occupied.size > 0;
  }

  /** The domains that hold a selected pod. */
  get occupiedDomains(): ReadonlySet<string> {
    return this.occupied;
  }

  /**
   * The known domains a pod could take under this group now, on whichever node: `next` finds
   * none on a node that allows none of them, and the placement fails. Undefined for hostname
   * groups, whose new nodes' domains are not known yet.
   */
  eligibleDomains(selfSelecting: boolean, podDomains: Requirement): readonly string[] | undefined {
    if (this.spec.key === Label.hostname) return undefined;
    const count = (d: string) => this.counts.get(d) ?? 0;
    switch (this.spec.type) {
      case 'spread': {
        const least = this.minCount(podDomains) - (selfSelecting ? 1 : 0);
        return this.sorted().filter((d) => count(d) - least <= this.spec.maxSkew);
      }
      case 'affinity':
        if (this.anyOccupied(podDomains) || !selfSelecting) {
          return this.sorted().filter((d) => count(d) > 0 && has(podDomains, d));
        }
        return this.sorted().filter((d) => has(podDomains, d));
      case 'antiAffinity':
        return this.sorted().filter((d) => count(d) === 0 && has(podDomains, d));
    }
  }

  /** The domains a pod may take on a node whose requirements allow `nodeDomains`. */
  next(selfSelecting: boolean, podDomains: Requirement, nodeDomains: Requirement): Requirement {
    switch (this.spec.type) {
      case 'spread':
        return this.nextSpread(selfSelecting, podDomains, nodeDomains);
      case 'affinity':
        return this.nextAffinity(selfSelecting, podDomains, nodeDomains);
      case 'antiAffinity':
        return this.nextAntiAffinity(podDomains, nodeDomains);
    }
  }

  private sorted(): readonly string[] {
    this.sortedCache ??= [...this.counts.keys()].sort();
    return this.sortedCache;
  }

  /**
   * Candidate domains: the node's own few values when it names them, else every known domain.
   * A hostname no group has counted yet is a new node's, empty by definition: checking a pod
   * against a claim that is not open yet must not need its hostname registered first.
   */
  private candidates(nodeDomains: Requirement): readonly string[] {
    if (!nodeDomains.complement && this.spec.key === Label.hostname) {
      return [...nodeDomains.values].sort();
    }
    if (!nodeDomains.complement && nodeDomains.values.size < this.counts.size) {
      return [...nodeDomains.values].filter((d) => this.counts.has(d)).sort();
    }
    return this.sorted().filter((d) => has(nodeDomains, d));
  }

  private minCount(podDomains: Requirement): number {
    // A new node can always open a fresh hostname, so that spread's minimum is always zero.
    if (this.spec.key === Label.hostname) return 0;
    let min = Number.POSITIVE_INFINITY;
    let supported = 0;
    for (const [domain, count] of this.counts) {
      if (!has(podDomains, domain)) continue;
      supported++;
      if (count < min) min = count;
    }
    if (this.spec.minDomains !== undefined && supported < this.spec.minDomains) return 0;
    return Number.isFinite(min) ? min : 0;
  }

  private nextSpread(
    selfSelecting: boolean,
    podDomains: Requirement,
    nodeDomains: Requirement,
  ): Requirement {
    const min = this.minCount(podDomains);
    let best: string | undefined;
    let bestCount = Number.POSITIVE_INFINITY;
    for (const domain of this.candidates(nodeDomains)) {
      const count = (this.counts.get(domain) ?? 0) + (selfSelecting ? 1 : 0);
      if (count - min <= this.spec.maxSkew && count < bestCount) {
        best = domain;
        bestCount = count;
      }
    }
    return best === undefined
      ? requirement(this.key, 'DoesNotExist')
      : requirement(this.key, 'In', [best]);
  }

  private anyOccupied(podDomains: Requirement): boolean {
    if (this.occupied.size === 0) return false;
    if (isUnbounded(podDomains)) return true;
    return this.sorted().some((d) => (this.counts.get(d) ?? 0) > 0 && has(podDomains, d));
  }

  private nextAffinity(
    selfSelecting: boolean,
    podDomains: Requirement,
    nodeDomains: Requirement,
  ): Requirement {
    if (this.anyOccupied(podDomains) || !selfSelecting) {
      // Only the node's own domains can survive the intersection, so only they are listed.
      const occupied = this.candidates(nodeDomains).filter(
        (d) => (this.counts.get(d) ?? 0) > 0 && has(podDomains, d),
      );
      return requirement(this.key, 'In', occupied);
    }
    // The first pod of a self-affine group bootstraps it: prefer a domain this node can take.
    const onNode = this.candidates(nodeDomains).find((d) => has(podDomains, d));
    const anywhere = onNode ?? this.sorted().find((d) => has(podDomains, d));
    return requirement(this.key, 'In', anywhere === undefined ? [] : [anywhere]);
  }

  private nextAntiAffinity(podDomains: Requirement, nodeDomains: Requirement): Requirement {
    const empty = this.candidates(nodeDomains).filter(
      (d) => (this.counts.get(d) ?? 0) === 0 && has(podDomains, d),
    );
    return requirement(this.key, 'In', empty);
  }
}
