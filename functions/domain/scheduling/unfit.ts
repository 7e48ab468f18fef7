/** Why a pod cannot go somewhere: a machine-readable code and a sentence for people. */

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
}

export const unfit = (code: UnfitCode, reason: string): Unfit => ({ code, reason });
