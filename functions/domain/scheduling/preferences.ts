/**
 * The soft and alternative constraints of a pending pod, and how they are relaxed one step at a
 * time when the pod cannot be placed, in Karpenter's fixed order
 * (core: pkg/controllers/provisioning/scheduling/preferences.go):
 * 1. drop the first of several required node-affinity terms (they are OR-ed),
 * 2. drop the heaviest preferred pod-affinity term,
 * 3. drop the heaviest preferred pod-anti-affinity term,
 * 4. drop the heaviest preferred node-affinity term,
 * 5. drop a ScheduleAnyway topology spread,
 * 6. tolerate PreferNoSchedule taints (only when some NodePool has one).
 */
import type {
  NodeSelectorTerm,
  Pod,
  PreferredSchedulingTerm,
  TopologySpreadConstraint,
  WeightedPodAffinityTerm,
} from '../pod.ts';

export interface Preferences {
  readonly requiredTerms: readonly NodeSelectorTerm[];
  /** Heaviest first; the first one is treated as required until relaxed. */
  readonly preferredNodeTerms: readonly PreferredSchedulingTerm[];
  readonly preferredAffinity: readonly WeightedPodAffinityTerm[];
  readonly preferredAntiAffinity: readonly WeightedPodAffinityTerm[];
  readonly spreads: readonly TopologySpreadConstraint[];
  readonly toleratesPreferNoSchedule: boolean;
}

export interface Relaxation {
  readonly preferences: Preferences;
  /** What was dropped, for people reading why a pod landed where it did. */
  readonly dropped: string;
}

function heaviestFirst<T extends { readonly weight: number }>(
  terms: readonly T[] | undefined,
): readonly T[] {
  // A stable sort keeps the author's order among equal weights, as Karpenter's SliceStable does.
  return [...(terms ?? [])].sort((a, b) => b.weight - a.weight);
}

export function preferencesOf(pod: Pod): Preferences {
  const affinity = pod.spec.affinity;
  return {
    requiredTerms:
      affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ??
      [],
    preferredNodeTerms: heaviestFirst(
      affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution,
    ),
    preferredAffinity: heaviestFirst(
      affinity?.podAffinity?.preferredDuringSchedulingIgnoredDuringExecution,
    ),
    preferredAntiAffinity: heaviestFirst(
      affinity?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution,
    ),
    spreads: pod.spec.topologySpreadConstraints,
    toleratesPreferNoSchedule: false,
  };
}

/** The same constraints with every preference dropped up front (`--preference-policy Ignore`). */
export function withoutPreferences(prefs: Preferences): Preferences {
  return {
    ...prefs,
    preferredNodeTerms: [],
    preferredAffinity: [],
    preferredAntiAffinity: [],
    spreads: prefs.spreads.filter((s) => s.whenUnsatisfiable === 'DoNotSchedule'),
  };
}

type Step = (prefs: Preferences) => Relaxation | undefined;

const STEPS: readonly Step[] = [
  (p) =>
    p.requiredTerms.length > 1
      ? {
          preferences: { ...p, requiredTerms: p.requiredTerms.slice(1) },
          dropped: 'required node affinity term 1',
        }
      : undefined,
  (p) =>
    p.preferredAffinity.length > 0
      ? {
          preferences: { ...p, preferredAffinity: p.preferredAffinity.slice(1) },
          dropped: 'preferred pod affinity',
        }
      : undefined,
  (p) =>
    p.preferredAntiAffinity.length > 0
      ? {
          preferences: { ...p, preferredAntiAffinity: p.preferredAntiAffinity.slice(1) },
          dropped: 'preferred pod anti-affinity',
        }
      : undefined,
  (p) =>
    p.preferredNodeTerms.length > 0
      ? {
          preferences: { ...p, preferredNodeTerms: p.preferredNodeTerms.slice(1) },
          dropped: 'preferred node affinity',
        }
      : undefined,
  (p) => {
    const index = p.spreads.findIndex((s) => s.whenUnsatisfiable === 'ScheduleAnyway');
    if (index < 0) return undefined;
    const spreads = p.spreads.filter((_, i) => i !== index);
    return { preferences: { ...p, spreads }, dropped: 'ScheduleAnyway topology spread' };
  },
];

/** One relaxation step, or undefined when nothing is left to relax. */
export function relax(
  prefs: Preferences,
  canToleratePreferNoSchedule: boolean,
): Relaxation | undefined {
  for (const step of STEPS) {
    const relaxed = step(prefs);
    if (relaxed !== undefined) return relaxed;
  }
  if (canToleratePreferNoSchedule && !prefs.toleratesPreferNoSchedule) {
    return {
      preferences: { ...prefs, toleratesPreferNoSchedule: true },
      dropped: 'PreferNoSchedule taints',
    };
  }
  return undefined;
}
