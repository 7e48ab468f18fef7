/**
 * Every domain a topology key can take: what the NodePools' instance types can offer for it
 * (intersected with each pool's requirements, so a pool limited to two zones adds only those)
 * and what existing nodes carry (core: scheduling/scheduler.go, buildDomainGroups).
 */
import { Label } from '../../labels.ts';
import type { Pod } from '../../pod.ts';
import { intersect, type Requirement } from '../../requirements/requirement.ts';
import type { NodeClaimTemplate } from '../node-claim-template.ts';
import type { StateNode } from '../state-nodes.ts';

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

function addValues(req: Requirement | undefined, into: Set<string>): void {
  if (req !== undefined && !req.complement) for (const value of req.values) into.add(value);
}

function templateDomains(template: NodeClaimTemplate, key: string, into: Set<string>): void {
  const declared = template.requirements.get(key);
  for (const { instanceType } of template.options) {
    const offered = instanceType.requirements.get(key);
    addValues(
      offered !== undefined && declared !== undefined
        ? intersect(declared, offered)
        : (offered ?? declared),
      into,
    );
  }
  addValues(declared, into);
}

function nodeDomains(nodes: readonly StateNode[], key: string, into: Set<string>): void {
  for (const node of nodes) addValues(node.input.requirements.get(key), into);
}

export function topologyUniverse(
  templates: readonly NodeClaimTemplate[],
  nodes: readonly StateNode[],
  pods: readonly Pod[],
): Map<string, Set<string>> {
  const universe = new Map<string, Set<string>>();
  for (const key of topologyKeys(pods)) {
    const domains = new Set<string>();
    // New nodes' hostnames are opened one by one as claims are created.
    if (key !== Label.hostname)
      for (const template of templates) templateDomains(template, key, domains);
    nodeDomains(nodes, key, domains);
    universe.set(key, domains);
  }
  return universe;
}
