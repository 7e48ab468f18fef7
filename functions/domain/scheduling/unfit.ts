/** Why a pod cannot go somewhere: a machine-readable code and a sentence for people. */
import type { LimitRefusal } from '../limits/limit-scope.ts';

export type UnfitCode =
  | 'Taints'
  | 'HostPorts'
  | 'Requirements'
  | 'Topology'
  | 'Resources'
  | 'Offerings'
  | 'MinValues'
  | 'Limits'
  | 'NoNodePools'
  | 'NotReady'
  | 'Deleting'
  | 'Static'
  | 'PlacementGroup'
  | 'Deadline';

export interface Unfit {
  readonly code: UnfitCode;
  readonly reason: string;
  /** For `Limits`: which limit refused. */
  readonly limit?: LimitRefusal;
}

export const unfit = (code: UnfitCode, reason: string): Unfit => ({ code, reason });

/**
 * Whether a `canAdd` answer is a refusal. Every placement target answers `canAdd` with what
 * adding the pod would change (which `add` then applies) or why it cannot.
 */
export function isUnfit<P extends object>(answer: P | Unfit): answer is Unfit {
  return 'code' in answer;
}

/** A limit's refusal as an Unfit, keeping which limit it was. */
export const limitUnfit = (refusal: LimitRefusal): Unfit => ({
  code: 'Limits',
  reason: refusal.message,
  limit: refusal,
});
