/** A Kubernetes Node as the scheduler and the disruption logic see it. */
import type { Labels } from './label-selector.ts';
import type { Resources } from './resources.ts';
import type { Taint } from './taints.ts';

/** A status condition the kubelet or a node monitoring agent reports on the Node. */
export interface NodeCondition {
  readonly type: string;
  readonly status: string;
  /** When the status last changed (ISO-8601): repair counts its tolerations from here. */
  readonly lastTransitionTime?: string;
}

export interface Node {
  readonly name: string;
  readonly labels: Labels;
  readonly annotations: Labels;
  readonly taints: readonly Taint[];
  /** Cordoned (`spec.unschedulable`). */
  readonly unschedulable: boolean;
  readonly providerID?: string;
  readonly capacity: Resources;
  readonly allocatable: Resources;
  readonly ready: boolean;
  /** `status.conditions`, for repair (docs/disruption.md, "Repair"); absent when none. */
  readonly conditions?: readonly NodeCondition[];
  readonly deleting: boolean;
  /** `metadata.finalizers`: what must happen before a deleted Node goes; absent when none. */
  readonly finalizers?: readonly string[];
  readonly creationTimestamp?: string;
}
