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
  | 'Deadline';

export interface Unfit {
  readonly code: UnfitCode;
  readonly reason: string;
  /** For `Limits`: which limit refused. */
  readonly limit?: LimitRefusal;
}

export const unfit = (code: UnfitCode, reason: string): Unfit => ({ code, reason });

/** A limit's refusal as an Unfit, keeping which limit it was. */
export const limitUnfit = (refusal: LimitRefusal): Unfit => ({
  code: 'Limits',
  reason: refusal.message,
  limit: refusal,
});
