/**
 * The topology groups a pending pod declares under its current preferences: each spread, and
 * each required or (until relaxed) preferred pod affinity and anti-affinity term.
 */
import {
  type LabelSelector,
  type Labels,
  selectorKey,
  selectorMatches,
} from '../../label-selector.ts';
import type { Pod, PodAffinityTerm, TopologySpreadConstraint } from '../../pod.ts';
import type { Preferences } from '../preferences.ts';
import { ANY_NODE, nodeFilterFor } from './node-filter.ts';
import type { TopologyGroupSpec, TopologyType } from './topology-group.ts';

export type NamespaceLabels = ReadonlyMap<string, Labels>;

function withLabelKeys(
  selector: LabelSelector | undefined,
  labels: Labels,
  matchKeys: readonly string[] = [],
  mismatchKeys: readonly string[] = [],
): LabelSelector | undefined {
  if (selector === undefined || (matchKeys.length === 0 && mismatchKeys.length === 0))
    return selector;
  const extra = [
    ...matchKeys
      .filter((k) => labels[k] !== undefined)
      .map((key) => ({ key, operator: 'In' as const, values: [labels[key] ?? ''] })),
    ...mismatchKeys
      .filter((k) => labels[k] !== undefined)
      .map((key) => ({ key, operator: 'NotIn' as const, values: [labels[key] ?? ''] })),
  ];
  return { ...selector, matchExpressions: [...(selector.matchExpressions ?? []), ...extra] };
}

/** A term's namespaces: listed ones plus those its selector matches; none given means the pod's own. */
export function termNamespaces(
  pod: Pod,
  term: PodAffinityTerm,
  namespaces: NamespaceLabels,
): ReadonlySet<string> | 'all' {
  const selector = term.namespaceSelector;
  if (
    selector !== undefined &&
    (selector.matchLabels === undefined || Object.keys(selector.matchLabels).length === 0) &&
    (selector.matchExpressions ?? []).length === 0
  ) {
    return 'all';
  }
  const out = new Set(term.namespaces ?? []);
  if (selector !== undefined) {
    for (const [name, labels] of namespaces) if (selectorMatches(selector, labels)) out.add(name);
  }
  if (out.size === 0 && selector === undefined) out.add(pod.namespace);
  return out;
}

function affinitySpec(
  pod: Pod,
  type: TopologyType,
  term: PodAffinityTerm,
  namespaces: NamespaceLabels,
): TopologyGroupSpec {
  return {
    type,
    key: term.topologyKey,
    namespaces: termNamespaces(pod, term, namespaces),
    selector: withLabelKeys(
      term.labelSelector,
      pod.labels,
      term.matchLabelKeys,
      term.mismatchLabelKeys,
    ),
    maxSkew: Number.MAX_SAFE_INTEGER,
    nodeFilter: ANY_NODE,
  };
}

function spreadSpec(pod: Pod, spread: TopologySpreadConstraint): TopologyGroupSpec {
  const base: TopologyGroupSpec = {
    type: 'spread',
    key: spread.topologyKey,
    namespaces: new Set([pod.namespace]),
    selector: withLabelKeys(spread.labelSelector, pod.labels, spread.matchLabelKeys),
    maxSkew: spread.maxSkew,
    nodeFilter: nodeFilterFor(pod, spread),
  };
  return spread.minDomains === undefined ? base : { ...base, minDomains: spread.minDomains };
}

export function ownedGroupSpecs(
  pod: Pod,
  prefs: Preferences,
  namespaces: NamespaceLabels,
): TopologyGroupSpec[] {
  const affinity = pod.spec.affinity;
  const required = (terms: readonly PodAffinityTerm[] | undefined, type: TopologyType) =>
    (terms ?? []).map((t) => affinitySpec(pod, type, t, namespaces));
  return [
    ...prefs.spreads.map((s) => spreadSpec(pod, s)),
    ...required(affinity?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution, 'affinity'),
    ...prefs.preferredAffinity.map((t) =>
      affinitySpec(pod, 'affinity', t.podAffinityTerm, namespaces),
    ),
    ...required(
      affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution,
      'antiAffinity',
    ),
    ...prefs.preferredAntiAffinity.map((t) =>
      affinitySpec(pod, 'antiAffinity', t.podAffinityTerm, namespaces),
    ),
  ];
}

/** Required anti-affinity terms repel other pods too (inverse anti-affinity); preferred ones do not. */
export function inverseGroupSpecs(pod: Pod, namespaces: NamespaceLabels): TopologyGroupSpec[] {
  const terms =
    pod.spec.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? [];
  return terms.map((t) => affinitySpec(pod, 'antiAffinity', t, namespaces));
}

export function groupKey(spec: TopologyGroupSpec): string {
  const namespaces = spec.namespaces === 'all' ? '*' : [...spec.namespaces].sort().join(',');
  return [
    spec.type,
    spec.key,
    namespaces,
    selectorKey(spec.selector),
    spec.maxSkew,
    spec.minDomains ?? '',
    spec.nodeFilter.key,
  ].join('|');
}
