/**
 * `karpenter.sh/do-not-disrupt` on a pod or a node: `"true"` holds voluntary disruption off for
 * as long as it is set; a duration (`"4h"`) holds it off for that long after the pod started
 * (core: pkg/utils/pod/scheduling.go, IsDoNotDisruptActive). A value that is neither is ignored,
 * as Karpenter ignores it.
 */
import { parseDuration } from '../duration.ts';
import type { Labels } from '../label-selector.ts';
import { Annotation } from '../labels.ts';

export type Protection =
  | { readonly active: false }
  | { readonly active: true; readonly untilMs?: number };

const NONE: Protection = { active: false };

/**
 * Whether the annotation protects its object now. `startedAt` is when the pod started (its
 * creation when the start is unknown); with no time at all a duration protects, failing safe.
 */
export function doNotDisrupt(
  annotations: Labels,
  startedAt: string | undefined,
  nowMs: number,
): Protection {
  const value = annotations[Annotation.doNotDisrupt];
  if (value === undefined) return NONE;
  if (value === 'true') return { active: true };
  const ms = parseDuration(value);
  if (ms === undefined || ms <= 0) return NONE;
  if (startedAt === undefined) return { active: true };
  const untilMs = Date.parse(startedAt) + ms;
  return nowMs < untilMs ? { active: true, untilMs } : NONE;
}
