/**
 * Which nodes a topology spread counts: with `nodeAffinityPolicy: Honor` (the default) only
 * nodes matching the owning pod's nodeSelector and required node affinity; with
 * `nodeTaintsPolicy: Honor` only nodes whose taints the pod tolerates
 * (core: pkg/controllers/provisioning/scheduling/topologynodefilter.go).
 */
import type { Labels } from '../../label-selector.ts';
import type { Pod, TopologySpreadConstraint } from '../../pod.ts';
import {
  add,
  fromLabels,
  fromNodeSelector,
  isCompatible,
  labelsSatisfy,
  type Requirements,
} from '../../requirements/requirements.ts';
import { firstUntolerated, type Taint, type Toleration } from '../../taints.ts';

export interface NodeFilter {
  /** OR-ed alternatives; empty means every node passes. */
  readonly terms: readonly Requirements[];
  readonly tolerations?: readonly Toleration[];
  /** Identifies the filter inside a topology group's key. */
  readonly key: string;
}

export const ANY_NODE: NodeFilter = { terms: [], key: '*' };

/** The filter of a spread that honors node affinity, on a pod that asks for none: most spreads. */
const UNAFFINED: NodeFilter = { terms: [], key: JSON.stringify([[{}, null], null]) };

function asksNoNodes(pod: Pod): boolean {
  return (
    pod.spec.nodeSelector === undefined &&
    pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution === undefined
  );
}

export function nodeFilterFor(pod: Pod, spread: TopologySpreadConstraint): NodeFilter {
  const honorAffinity = (spread.nodeAffinityPolicy ?? 'Honor') === 'Honor';
  const honorTaints = spread.nodeTaintsPolicy === 'Honor';
  if (!honorAffinity && !honorTaints) return ANY_NODE;
  if (honorAffinity && !honorTaints && asksNoNodes(pod)) return UNAFFINED;
  return filterOf(pod, honorAffinity, honorTaints);
}

function filterOf(pod: Pod, honorAffinity: boolean, honorTaints: boolean): NodeFilter {
  const selector = fromLabels(pod.spec.nodeSelector);
  const required = pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  const terms = !honorAffinity
    ? []
    : required && required.nodeSelectorTerms.length > 0
      ? required.nodeSelectorTerms.map((t) => add(selector, fromNodeSelector(t.matchExpressions)))
      : selector.size > 0
        ? [selector]
        : [];
  const key = JSON.stringify([
    honorAffinity ? [pod.spec.nodeSelector ?? {}, required ?? null] : null,
    honorTaints ? pod.spec.tolerations : null,
  ]);
  return honorTaints ? { terms, tolerations: pod.spec.tolerations, key } : { terms, key };
}

function toleratesFilter(filter: NodeFilter, taints: readonly Taint[]): boolean {
  return (
    filter.tolerations === undefined || firstUntolerated(filter.tolerations, taints) === undefined
  );
}

export function filterMatchesNode(
  filter: NodeFilter,
  labels: Labels,
  taints: readonly Taint[],
): boolean {
  if (!toleratesFilter(filter, taints)) return false;
  return filter.terms.length === 0 || filter.terms.some((term) => labelsSatisfy(labels, term));
}

export function filterMatchesRequirements(
  filter: NodeFilter,
  requirements: Requirements,
  taints: readonly Taint[],
): boolean {
  if (!toleratesFilter(filter, taints)) return false;
  return filter.terms.length === 0 || filter.terms.some((term) => isCompatible(requirements, term));
}
