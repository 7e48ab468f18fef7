/** Taints and tolerations, with Kubernetes' matching rules. */

export type TaintEffect = 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';

export interface Taint {
  readonly key: string;
  readonly value?: string;
  readonly effect: TaintEffect;
}

export interface Toleration {
  readonly key?: string;
  readonly operator?: 'Exists' | 'Equal';
  readonly value?: string;
  readonly effect?: TaintEffect;
  readonly tolerationSeconds?: number;
}

/**
 * Taints a node carries briefly while it boots; on a managed node that is not initialized yet
 * they never block a pod. Karpenter's list, matched as it matches them (key and effect, as
 * `Taint.MatchTaint` does), plus the key prefixes of taint families whose key ends in a
 * controller-chosen name (core pkg/scheduling/taints.go at 2266468: `KnownEphemeralTaints`,
 * `KnownEphemeralTaintKeyPrefixes`, `IsKnownEphemeralTaint`).
 */
export const KNOWN_EPHEMERAL_TAINTS: readonly Taint[] = [
  { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' },
  { key: 'node.cloudprovider.kubernetes.io/uninitialized', value: 'true', effect: 'NoSchedule' },
  { key: 'karpenter.sh/unregistered', effect: 'NoExecute' },
];

/** The Node Readiness Controller's taints (`readiness.k8s.io/<rule>`) go once its rules pass. */
export const KNOWN_EPHEMERAL_TAINT_KEY_PREFIXES: readonly string[] = ['readiness.k8s.io/'];

/** Key and effect decide, as Kubernetes' `Taint.MatchTaint`: taints are unique by key:effect. */
export function matchTaint(a: Taint, b: Taint): boolean {
  return a.key === b.key && a.effect === b.effect;
}

export function isKnownEphemeralTaint(taint: Taint): boolean {
  return (
    KNOWN_EPHEMERAL_TAINTS.some((known) => matchTaint(known, taint)) ||
    KNOWN_EPHEMERAL_TAINT_KEY_PREFIXES.some((prefix) => taint.key.startsWith(prefix))
  );
}

export const DISRUPTED_TAINT: Taint = { key: 'karpenter.sh/disrupted', effect: 'NoSchedule' };

export function toleratesTaint(toleration: Toleration, taint: Taint): boolean {
  if (toleration.effect !== undefined && toleration.effect !== taint.effect) return false;
  if ((toleration.key ?? '') !== '' && toleration.key !== taint.key) return false;
  if (toleration.operator === 'Exists') return true;
  if ((toleration.key ?? '') === '') return false;
  return (toleration.value ?? '') === (taint.value ?? '');
}

export function tolerates(tolerations: readonly Toleration[], taint: Taint): boolean {
  return tolerations.some((toleration) => toleratesTaint(toleration, taint));
}

/**
 * The first taint the tolerations do not tolerate, or undefined. Every effect counts, as in
 * Karpenter's `Taints.ToleratesPod`: a PreferNoSchedule taint keeps a pod away until the pod's
 * preferences are relaxed to tolerate it.
 */
export function firstUntolerated(
  tolerations: readonly Toleration[],
  taints: readonly Taint[],
): Taint | undefined {
  return taints.find((taint) => !tolerates(tolerations, taint));
}

export function sameTaint(a: Taint, b: Taint): boolean {
  return a.key === b.key && a.effect === b.effect && (a.value ?? '') === (b.value ?? '');
}

export function formatTaint(taint: Taint): string {
  return `${taint.key}${taint.value ? `=${taint.value}` : ''}:${taint.effect}`;
}
