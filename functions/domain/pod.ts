/**
 * A pod as the scheduler sees it: the Kubernetes fields that affect placement, with quantities
 * already parsed into `Resources`. Field names follow core/v1 so the shape reads familiar.
 */
import type { LabelSelector, Labels } from './label-selector.ts';
import type { NodeSelectorRequirement } from './requirements/requirement.ts';
import type { Resources } from './resources.ts';
import type { Toleration } from './taints.ts';

export interface ContainerPort {
  readonly containerPort: number;
  readonly hostPort?: number;
  readonly hostIP?: string;
  readonly protocol?: 'TCP' | 'UDP' | 'SCTP';
}

export interface Container {
  readonly name: string;
  readonly requests: Resources;
  readonly ports?: readonly ContainerPort[];
  /** `Always` on an init container makes it a native sidecar that runs alongside the app. */
  readonly restartPolicy?: 'Always';
}

export interface NodeSelectorTerm {
  readonly matchExpressions?: readonly NodeSelectorRequirement[];
  readonly matchFields?: readonly NodeSelectorRequirement[];
}

export interface PreferredSchedulingTerm {
  readonly weight: number;
  readonly preference: NodeSelectorTerm;
}

/** Kubernetes' pair of affinity rules: the ones a placement must meet, and the weighted wishes. */
interface SchedulingRules<TRequired, TPreferred> {
  readonly requiredDuringSchedulingIgnoredDuringExecution?: TRequired;
  readonly preferredDuringSchedulingIgnoredDuringExecution?: readonly TPreferred[];
}

export type NodeAffinity = SchedulingRules<
  { readonly nodeSelectorTerms: readonly NodeSelectorTerm[] },
  PreferredSchedulingTerm
>;

export interface PodAffinityTerm {
  readonly labelSelector?: LabelSelector;
  readonly namespaces?: readonly string[];
  readonly namespaceSelector?: LabelSelector;
  readonly topologyKey: string;
  readonly matchLabelKeys?: readonly string[];
  readonly mismatchLabelKeys?: readonly string[];
}

export interface WeightedPodAffinityTerm {
  readonly weight: number;
  readonly podAffinityTerm: PodAffinityTerm;
}

export type PodAffinity = SchedulingRules<readonly PodAffinityTerm[], WeightedPodAffinityTerm>;

export interface Affinity {
  readonly nodeAffinity?: NodeAffinity;
  readonly podAffinity?: PodAffinity;
  readonly podAntiAffinity?: PodAffinity;
}

export interface TopologySpreadConstraint {
  readonly maxSkew: number;
  readonly topologyKey: string;
  readonly whenUnsatisfiable: 'DoNotSchedule' | 'ScheduleAnyway';
  readonly labelSelector?: LabelSelector;
  readonly minDomains?: number;
  readonly nodeAffinityPolicy?: 'Honor' | 'Ignore';
  readonly nodeTaintsPolicy?: 'Honor' | 'Ignore';
  readonly matchLabelKeys?: readonly string[];
}

export interface PodVolume {
  readonly name: string;
  readonly persistentVolumeClaim?: { readonly claimName: string };
  /** Generic ephemeral volume: its PVC is named `<pod>-<volume>`. */
  readonly ephemeral?: { readonly storageClassName?: string };
}

export interface PodSpec {
  readonly containers: readonly Container[];
  readonly initContainers: readonly Container[];
  readonly overhead?: Resources;
  readonly nodeSelector?: Labels;
  readonly affinity?: Affinity;
  readonly tolerations: readonly Toleration[];
  readonly topologySpreadConstraints: readonly TopologySpreadConstraint[];
  readonly volumes: readonly PodVolume[];
  readonly runtimeClassName?: string;
  readonly priority?: number;
  readonly terminationGracePeriodSeconds?: number;
  /** Dynamic resource claims; Karpenter ignores such pods by default. */
  readonly resourceClaimCount?: number;
}

export interface Pod {
  readonly uid: string;
  readonly namespace: string;
  readonly name: string;
  readonly labels: Labels;
  readonly annotations: Labels;
  /** RFC 3339; orders pods of equal size, as Karpenter's queue does. */
  readonly creationTimestamp?: string;
  /** Kind of the controlling owner reference (`ReplicaSet`, `DaemonSet`, `Node` for mirror pods …). */
  readonly ownerKind?: string;
  readonly deleting: boolean;
  readonly phase?: string;
  readonly nodeName?: string;
  readonly nominatedNodeName?: string;
  /** kube-scheduler reported `PodScheduled=False` with reason `Unschedulable`. */
  readonly markedUnschedulable?: boolean;
  /** RFC 3339: when `PodScheduled` last turned True, the pod's binding to its node. */
  readonly scheduledAt?: string;
  /** RFC 3339: when `Ready` last turned True, while it is True. */
  readonly readyAt?: string;
  /** Restarts of its containers (init containers not counted), when any restarted. */
  readonly containerRestarts?: number;
  readonly spec: PodSpec;
}

export function podKey(pod: Pick<Pod, 'namespace' | 'name'>): string {
  return `${pod.namespace}/${pod.name}`;
}

/** Pods that no longer hold resources on their node. */
export function isTerminal(pod: Pod): boolean {
  return pod.phase === 'Succeeded' || pod.phase === 'Failed';
}
