/**
 * A node's taint list with some taints added or removed, computed on the taints as the server
 * holds them: a taint Nodesmith does not touch goes back exactly as read, `timeAdded` included
 * (the NoExecute taint manager counts tolerationSeconds from it).
 */
import type { V1Taint } from '@kubernetes/client-node';
import type { Taint } from '../../domain/taints.ts';

/** A taint as it goes back in a patch body: JSON, with `timeAdded` as RFC 3339 text. */
export interface WireTaint {
  readonly key: string;
  readonly effect: string;
  readonly value?: string;
  readonly timeAdded?: string;
}

export function toWireTaint(taint: V1Taint | Taint): WireTaint {
  const timeAdded = 'timeAdded' in taint ? taint.timeAdded : undefined;
  return {
    key: taint.key,
    effect: taint.effect,
    ...(taint.value === undefined || taint.value === '' ? {} : { value: taint.value }),
    ...(timeAdded === undefined ? {} : { timeAdded: new Date(timeAdded).toISOString() }),
  };
}

/** The server allows one taint per key and effect; Kubernetes' `MatchTaint` compares just those. */
function sameSlot(a: WireTaint, b: Taint): boolean {
  return a.key === b.key && a.effect === b.effect;
}

function sameValue(a: WireTaint, b: Taint): boolean {
  return (a.value ?? '') === (b.value ?? '');
}

/**
 * The list with each taint present: a taint whose key and effect are on the node replaces that
 * one in place, a new one is appended. Undefined when the node already has them all.
 */
export function withTaints(
  current: readonly WireTaint[],
  taints: readonly Taint[],
): WireTaint[] | undefined {
  const missing = taints.filter(
    (taint) => !current.some((t) => sameSlot(t, taint) && sameValue(t, taint)),
  );
  if (missing.length === 0) return undefined;
  const replaced = current.map((t) => {
    const replacement = missing.find((taint) => sameSlot(t, taint));
    return replacement === undefined ? t : toWireTaint(replacement);
  });
  const added = missing.filter((taint) => !current.some((t) => sameSlot(t, taint)));
  return [...replaced, ...added.map(toWireTaint)];
}

/** The list without the taints matching these by key and effect; undefined when none is there. */
export function withoutTaints(
  current: readonly WireTaint[],
  taints: readonly Taint[],
): WireTaint[] | undefined {
  const kept = current.filter((t) => !taints.some((taint) => sameSlot(t, taint)));
  return kept.length === current.length ? undefined : kept;
}
