/**
 * Every domain a topology key can take, with where it comes from: what each NodePool's
 * instance types can offer for it (intersected with the pool's requirements, so a pool limited
 * to two zones adds only those) and what existing nodes carry. A spread that honours node
 * affinity or taints only counts the domains of sources its pod could use
 * (core: scheduling/scheduler.go buildDomainGroups, topologydomaingroup.go ForEachDomain).
 */
import { Label } from '../../labels.ts';
import type { Pod } from '../../pod.ts';
import { intersect, type Requirement } from '../../requirements/requirement.ts';
import type { Requirements } from '../../requirements/requirements.ts';
import type { Taint } from '../../taints.ts';
import type { NodeClaimTemplate } from '../node-claim-template.ts';

/** A domain and the requirements and taints of the NodePool or node that offers it. */
export interface DomainSource {
  readonly domain: string;
  readonly requirements: Requirements;
  readonly taints: readonly Taint[];
}

export type TopologyUniverse = ReadonlyMap<string, readonly DomainSource[]>;

/** An existing node's labels (as requirements) and taints. */
export interface ExistingDomains {
  readonly requirements: Requirements;
  readonly taints: readonly Taint[];
}

function termKeys(pod: Pod): string[] {
  const affinity = pod.spec.affinity;
  return [affinity?.podAffinity, affinity?.podAntiAffinity].flatMap((group) => [
    ...(group?.requiredDuringSchedulingIgnoredDuringExecution ?? []).map((t) => t.topologyKey),
    ...(group?.preferredDuringSchedulingIgnoredDuringExecution ?? []).map(
      (t) => t.podAffinityTerm.topologyKey,
    ),
  ]);
}

function topologyKeys(pods: readonly Pod[]): Set<string> {
  const keys = new Set<string>();
  for (const pod of pods) {
    for (const spread of pod.spec.topologySpreadConstraints) keys.add(spread.topologyKey);
    if (pod.spec.affinity !== undefined) for (const key of termKeys(pod)) keys.add(key);
  }
  return keys;
}

function valuesOf(req: Requirement | undefined): readonly string[] {
  return req === undefined || req.complement ? [] : [...req.values];
}

function offeredDomains(template: NodeClaimTemplate, key: string): readonly string[] {
  const declared = template.requirements.get(key);
  const domains = new Set(valuesOf(declared));
  for (const { instanceType } of template.options) {
    const offered = instanceType.requirements.get(key);
    const both =
      offered !== undefined && declared !== undefined
        ? intersect(declared, offered)
        : (offered ?? declared);
    for (const value of valuesOf(both)) domains.add(value);
  }
  return [...domains];
}

/**
 * A template's domains for a key, worked out once per template: they depend on nothing else, and
 * the same templates are planned with many times (template-cache.ts), every plan walking every
 * option of every template for every key a pending pod spreads over.
 */
const domainsByTemplate = new WeakMap<NodeClaimTemplate, Map<string, readonly string[]>>();

function templateDomains(template: NodeClaimTemplate, key: string): readonly string[] {
  let byKey = domainsByTemplate.get(template);
  if (byKey === undefined) {
    byKey = new Map();
    domainsByTemplate.set(template, byKey);
  }
  let domains = byKey.get(key);
  if (domains === undefined) {
    domains = offeredDomains(template, key);
    byKey.set(key, domains);
  }
  return domains;
}

function sourcesOf(
  key: string,
  templates: readonly NodeClaimTemplate[],
  nodes: readonly ExistingDomains[],
): DomainSource[] {
  const sources: DomainSource[] = [];
  // New nodes' hostnames are opened one by one as claims are created.
  if (key !== Label.hostname) {
    for (const template of templates) {
      for (const domain of templateDomains(template, key)) {
        sources.push({ domain, requirements: template.requirements, taints: template.taints });
      }
    }
  }
  for (const node of nodes) {
    for (const domain of valuesOf(node.requirements.get(key))) {
      sources.push({ domain, requirements: node.requirements, taints: node.taints });
    }
  }
  return sources;
}

export function topologyUniverse(
  templates: readonly NodeClaimTemplate[],
  nodes: readonly ExistingDomains[],
  pods: readonly Pod[],
): TopologyUniverse {
  return new Map([...topologyKeys(pods)].map((key) => [key, sourcesOf(key, templates, nodes)]));
}
