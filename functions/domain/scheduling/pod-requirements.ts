/**
 * A pod's node requirements as Karpenter derives them: nodeSelector, the first remaining
 * required node-affinity term, and — until relaxed — the heaviest preferred term treated as
 * required (core: pkg/scheduling/requirements.go, NewPodRequirements).
 */
import type { Pod } from '../pod.ts';
import {
  add,
  fromLabels,
  fromNodeSelector,
  type Requirements,
} from '../requirements/requirements.ts';
import type { Preferences } from './preferences.ts';

export interface PodRequirements {
  /** nodeSelector + required terms: what the pod can never do without. */
  readonly strict: Requirements;
  /** strict + the heaviest preference + volume topology: what placement tries first. */
  readonly all: Requirements;
}

export function podRequirements(
  pod: Pod,
  prefs: Preferences,
  volumes: Requirements,
): PodRequirements {
  const selector = fromLabels(pod.spec.nodeSelector);
  const strict = add(selector, fromNodeSelector(prefs.requiredTerms[0]?.matchExpressions));
  const preferred = fromNodeSelector(prefs.preferredNodeTerms[0]?.preference.matchExpressions);
  return { strict, all: add(add(strict, preferred), volumes) };
}
