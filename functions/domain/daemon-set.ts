/** A DaemonSet's pod template: every node it tolerates and selects will run one such pod. */
import type { Labels } from './label-selector.ts';
import type { PodSpec } from './pod.ts';

export interface DaemonSet {
  readonly namespace: string;
  readonly name: string;
  readonly template: { readonly labels: Labels; readonly spec: PodSpec };
}
