/**
 * What Nodesmith reads from and writes to the Kubernetes cluster it scales (docs/design.md §3): the
 * snapshot a controller pass plans from, the node writes of registration, disruption and
 * termination, evictions through the Eviction API, and events that explain decisions. Split by
 * consumer: the interruption function needs only `NodeWriter` (cordon), the controller all of it.
 *
 * Every method may reject with ThrottledError when the API server refuses for rate (429), and
 * with InvalidConfigError when the function's identity may not do what the method does (401,
 * 403: the message names the resource and verb missing from the ClusterRole in
 * deploy/rbac.yaml) or when the server rejects a write as invalid (422, with the server's
 * message). An object the cluster holds that cannot be read as its domain type also rejects
 * with InvalidConfigError, naming the object and the field. Other port errors are listed per
 * method; anything else (network failures, 5xx) rejects with the original error.
 *
 * Lists come in the API server's order (by namespace, then name) and are read to the end, page
 * by page, however large the cluster.
 */
import type { ClusterObjects } from '../domain/cluster-snapshot.ts';
import type { DaemonSet } from '../domain/daemon-set.ts';
import type { Namespace } from '../domain/namespace.ts';
import type { NodeClaim } from '../domain/node-claim.ts';

export type { Namespace };

import type { Node } from '../domain/node.ts';
import type { Pod } from '../domain/pod.ts';
import type { PodDisruptionBudget } from '../domain/pod-disruption-budget.ts';
import type { Taint } from '../domain/taints.ts';
import type {
  PersistentVolume,
  PersistentVolumeClaim,
  RuntimeClass,
  StorageClass,
} from '../domain/volumes.ts';

/** Reads; none of them changes the cluster, so all are safe to repeat. */
export interface ClusterReader {
  /**
   * Nodes, then every other object of the snapshot that the cluster holds (the rest of a
   * ClusterSnapshot is Nodesmith's own, from its state store). All node pages are read before
   * the first pod page, as Karpenter orders its reads: the pod list is the newer of the two, so
   * a pod that bound in between is already charged to its node, and capacity is over- rather
   * than under-counted (docs/design.md §3.3).
   *
   * @example
   * const { nodes, pods } = await cluster.snapshot();
   * const pending = pods.filter((pod) => pod.nodeName === undefined);
   */
  snapshot(): Promise<ClusterObjects>;
  nodes(): Promise<readonly Node[]>;
  /**
   * Pods not bound to a node and in phase Pending, with `markedUnschedulable` set where
   * kube-scheduler reported `PodScheduled=False` with reason `Unschedulable`.
   */
  pendingPods(): Promise<readonly Pod[]>;
  /** Every pod that is not Succeeded or Failed, bound or pending. */
  pods(): Promise<readonly Pod[]>;
  /** The pods bound to the node that are not Succeeded or Failed; none when there is no such node. */
  podsOnNode(nodeName: string): Promise<readonly Pod[]>;
  daemonSets(): Promise<readonly DaemonSet[]>;
  podDisruptionBudgets(): Promise<readonly PodDisruptionBudget[]>;
  persistentVolumes(): Promise<readonly PersistentVolume[]>;
  persistentVolumeClaims(): Promise<readonly PersistentVolumeClaim[]>;
  storageClasses(): Promise<readonly StorageClass[]>;
  runtimeClasses(): Promise<readonly RuntimeClass[]>;
  namespaces(): Promise<readonly Namespace[]>;
}

/** Labels or annotations to set; `null` removes the key, keys not named are left alone. */
export interface NodeMetadataPatch {
  readonly labels?: Readonly<Record<string, string | null>>;
  readonly annotations?: Readonly<Record<string, string | null>>;
}

/** What registration writes on a node that joined as its claim's node, in one write. */
export interface NodeRegistration {
  readonly labels: Readonly<Record<string, string>>;
  /** Annotations to set; the node's others stay. */
  readonly annotations: Readonly<Record<string, string>>;
  readonly addTaints: readonly Taint[];
  readonly removeTaints: readonly Taint[];
  /** Finalizers to add; the node's others stay. */
  readonly finalizers: readonly string[];
}

/**
 * Node writes. Each resolves with the node as the server holds it afterwards. Each rejects with
 * NotFoundError when the node does not exist, except `deleteNode` and `removeFinalizer`.
 */
export interface NodeWriter {
  /**
   * Sets and removes labels and annotations, leaving the others. Idempotent.
   *
   * @example
   * await cluster.patchNodeMetadata(node.name, { labels: { 'karpenter.sh/registered': 'true' } });
   */
  patchNodeMetadata(nodeName: string, patch: NodeMetadataPatch): Promise<Node>;
  /**
   * Adds the taints, keeping every other taint on the node; a taint with the same key and
   * effect is replaced (the server allows one per key and effect). Idempotent: writes nothing
   * when the node already has them. The node is read and written back against its
   * resourceVersion, again after a concurrent change; rejects with ConflictError when changes
   * keep winning after a few tries.
   *
   * @example
   * await cluster.addTaints(node.name, [DISRUPTED_TAINT]);
   */
  addTaints(nodeName: string, taints: readonly Taint[]): Promise<Node>;
  /**
   * Removes the taints matching these by key and effect (the value is not compared), keeping
   * every other taint. Idempotent, and concurrency-safe as `addTaints` is.
   */
  removeTaints(nodeName: string, taints: readonly Taint[]): Promise<Node>;
  /**
   * Registers the node in a single write, as Karpenter's registration patches it once: sets the
   * labels, adds and removes the taints as `addTaints` and `removeTaints` do, and adds the
   * finalizers, so a node never shows as registered without them. Idempotent, and
   * concurrency-safe as `addTaints` is. Rejects with InvalidConfigError when the node is being
   * deleted and a finalizer is new (the server takes none then).
   *
   * @example
   * await cluster.registerNode(node.name, registrationPatch(claim, node));
   */
  registerNode(nodeName: string, registration: NodeRegistration): Promise<Node>;
  /**
   * Adds the finalizer, keeping the node's others. Idempotent. Rejects with InvalidConfigError
   * when the node is being deleted and does not have it yet.
   */
  addFinalizer(nodeName: string, finalizer: string): Promise<Node>;
  /**
   * Removes the finalizer, keeping the node's others; a deleted node whose last finalizer it
   * was is gone afterwards. Idempotent: resolves when the node or the finalizer is already gone.
   */
  removeFinalizer(nodeName: string, finalizer: string): Promise<void>;
  /** Marks the node unschedulable (`spec.unschedulable`). Idempotent. */
  cordon(nodeName: string): Promise<Node>;
  /** Makes the node schedulable again. Idempotent. */
  uncordon(nodeName: string): Promise<Node>;
  /**
   * Deletes the Node object. Idempotent: resolves when it is already gone. Finalizers on the
   * node may keep it for a while after this resolves.
   */
  deleteNode(nodeName: string): Promise<void>;
}

/**
 * The pod meant. With `uid`, a newer pod that took the same name is never touched (a
 * StatefulSet replica, say): the request carries the uid as a precondition.
 */
export interface PodReference {
  readonly namespace: string;
  readonly name: string;
  readonly uid?: string;
}

/**
 * Why an eviction was refused: `DisruptionBudget`, a budget guarding the pod has no disruption
 * left or is still being processed; `MultipleDisruptionBudgets`, more than one budget guards
 * the pod, which the Eviction API refuses until someone fixes the budgets.
 */
export type EvictionRefusal = 'DisruptionBudget' | 'MultipleDisruptionBudgets';

export type EvictionOutcome =
  | { readonly evicted: true }
  | {
      readonly evicted: false;
      readonly reason: EvictionRefusal;
      /** The API server's explanation, naming the budget. */
      readonly message: string;
    };

/** Removing pods from nodes being drained (docs/design.md §3.8). */
export interface PodEvictor {
  /**
   * Asks the Eviction API to evict the pod, honouring its PodDisruptionBudget and its own
   * termination grace period. A refusal by a budget is an expected outcome, not an error: try
   * again in a later pass. Resolves `{ evicted: true }` also when the pod is already gone or
   * another pod now has its name, as Karpenter counts both as done; so it is idempotent.
   *
   * @example
   * const outcome = await cluster.evict(pod);
   * if (!outcome.evicted) logger.info('eviction refused', { pod: podKey(pod), reason: outcome.reason });
   */
  evict(pod: PodReference): Promise<EvictionOutcome>;
  /**
   * Deletes the pod without consulting budgets: for pods still there at the termination grace
   * deadline. `gracePeriodSeconds` overrides the pod's own (0 deletes at once). Idempotent:
   * resolves when the pod, or the pod with this uid, is already gone.
   */
  deletePod(pod: PodReference, gracePeriodSeconds?: number): Promise<void>;
}

/** What an event is about. Cluster-scoped objects (Nodes) have no namespace. */
export interface InvolvedObject {
  readonly kind: string;
  readonly name: string;
  readonly namespace?: string;
  readonly uid?: string;
  /** `v1` when absent, right for Nodes and Pods. */
  readonly apiVersion?: string;
}

/** A decision worth showing in `kubectl describe` and `kubectl get events`. */
export interface ClusterEvent {
  readonly involvedObject: InvolvedObject;
  readonly type: 'Normal' | 'Warning';
  /** UpperCamelCase, machine-readable: `DisruptionBlocked`, `Evicted`, `Launched`. */
  readonly reason: string;
  readonly message: string;
  /**
   * Skip this event when one with the same object and reason was recorded within this many
   * seconds, as Karpenter's recorder dedupes (a pod pending for minutes is not told every pass).
   */
  readonly dedupeSeconds?: number;
}

export interface EventRecorder {
  /**
   * Records a core/v1 Event reported by `nodesmith`, in the object's namespace (`default` for
   * cluster-scoped objects, as Kubernetes' own components do). Not idempotent: each call adds
   * an event, unless `dedupeSeconds` says an equal one recorded lately by this process is
   * enough. Rejects with NotFoundError when the object's namespace does not exist.
   *
   * @example
   * await cluster.createEvent({ involvedObject: { kind: 'Node', name: node.name }, type: 'Normal', reason: 'DisruptionTerminating', message: 'empty node' });
   */
  createEvent(event: ClusterEvent): Promise<void>;
}

/**
 * Karpenter's own `karpenter.sh/v1` NodeClaims, read and let go only when Nodesmith adopts the
 * nodes Karpenter launched (the `adoptKarpenterNodes` setting). Their access is granted by
 * deploy/rbac-adoption.yaml, applied only with that setting.
 */
export interface KarpenterNodeClaims {
  /** Every NodeClaim, sorted by name; none when Karpenter's CRD is not installed (404). */
  karpenterNodeClaims(): Promise<readonly NodeClaim[]>;
  /**
   * Deletes the NodeClaim and then removes Karpenter's `karpenter.sh/termination` finalizer from
   * it, keeping any other, so no Karpenter is needed for it to go. Called once the adopted
   * node's instance is terminated. Idempotent: resolves when the NodeClaim is already gone.
   * The finalizers are read and written back against the resourceVersion, again after a
   * concurrent change; rejects with ConflictError when changes keep winning after a few tries.
   */
  releaseKarpenterNodeClaim(name: string): Promise<void>;
}

/** The whole cluster; consumers take the parts they use (`Pick<Cluster, 'cordon'>`). */
export interface Cluster
  extends ClusterReader,
    NodeWriter,
    PodEvictor,
    EventRecorder,
    KarpenterNodeClaims {}
