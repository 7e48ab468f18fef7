/**
 * The Cluster port on the Kubernetes API through `@kubernetes/client-node`. The composition root
 * builds the KubeConfig (endpoint, CA and token from EKS) and hands it to
 * `kubernetesClusterFrom`; the token inside is fixed, so build a new cluster object when the
 * token is renewed.
 *
 * @example
 * const cluster = kubernetesClusterFrom(kubeConfig);
 * const { nodes, pods } = await cluster.snapshot();
 * await cluster.addTaints(node.name, [DISRUPTED_TAINT]);
 */
import type { KubeConfig } from '@kubernetes/client-node';
import type { ClusterObjects } from '../../domain/cluster-snapshot.ts';
import type { DaemonSet } from '../../domain/daemon-set.ts';
import type { Node } from '../../domain/node.ts';
import type { NodeClaim } from '../../domain/node-claim.ts';
import type { Pod } from '../../domain/pod.ts';
import type { PodDisruptionBudget } from '../../domain/pod-disruption-budget.ts';
import type { Taint } from '../../domain/taints.ts';
import type {
  PersistentVolume,
  PersistentVolumeClaim,
  RuntimeClass,
  StorageClass,
} from '../../domain/volumes.ts';
import type {
  Cluster,
  ClusterEvent,
  EvictionOutcome,
  Namespace,
  NodeMetadataPatch,
  NodeRegistration,
  PodReference,
} from '../../ports/cluster.ts';
import { apisFrom, type KubernetesApis } from './clients.ts';
import { KubernetesClusterReader } from './cluster-reader.ts';
import { KubernetesEventRecorder } from './event-recorder.ts';
import {
  DEFAULT_RELEASE_ATTEMPTS,
  KubernetesKarpenterNodeClaims,
} from './karpenter-node-claims.ts';
import { DEFAULT_TAINT_ATTEMPTS, KubernetesNodeWriter } from './node-writer.ts';
import { DEFAULT_PAGE_SIZE } from './pages.ts';
import { KubernetesPodEvictor } from './pod-evictor.ts';
import type { WarmSnapshot } from './warm-snapshot.ts';

export interface KubernetesClusterOptions {
  /** Objects per list request. @default 500 */
  readonly pageSize?: number;
  /** Tries of a taint change that keeps meeting concurrent writes. @default 5 */
  readonly taintAttempts?: number;
  /** Tries of a Karpenter NodeClaim's finalizer removal that keeps meeting concurrent writes. @default 5 */
  readonly releaseAttempts?: number;
  /** The clock behind event timestamps. @default the wall clock */
  readonly now?: () => Date;
  /**
   * Nodes and pods kept between snapshots and caught up by watches (docs/design.md §3.3.1); a
   * composition root keeps one for the container and hands it to each cluster it builds.
   * @default none: every snapshot lists them
   */
  readonly warm?: WarmSnapshot;
}

export class KubernetesCluster implements Cluster {
  readonly #reader: KubernetesClusterReader;
  readonly #nodes: KubernetesNodeWriter;
  readonly #pods: KubernetesPodEvictor;
  readonly #events: KubernetesEventRecorder;
  readonly #karpenterNodeClaims: KubernetesKarpenterNodeClaims;

  constructor(apis: KubernetesApis, options: KubernetesClusterOptions = {}) {
    const pageSize = options.pageSize ?? DEFAULT_PAGE_SIZE;
    this.#reader = new KubernetesClusterReader(apis, pageSize, options.warm);
    this.#nodes = new KubernetesNodeWriter(
      apis.core,
      options.taintAttempts ?? DEFAULT_TAINT_ATTEMPTS,
    );
    this.#pods = new KubernetesPodEvictor(apis.core);
    this.#events = new KubernetesEventRecorder(apis.core, options.now ?? (() => new Date()));
    this.#karpenterNodeClaims = new KubernetesKarpenterNodeClaims(
      apis.customObjects,
      pageSize,
      options.releaseAttempts ?? DEFAULT_RELEASE_ATTEMPTS,
    );
  }

  snapshot(): Promise<ClusterObjects> {
    return this.#reader.snapshot();
  }

  nodes(): Promise<readonly Node[]> {
    return this.#reader.nodes();
  }

  pendingPods(): Promise<readonly Pod[]> {
    return this.#reader.pendingPods();
  }

  pods(): Promise<readonly Pod[]> {
    return this.#reader.pods();
  }

  podsOnNode(nodeName: string): Promise<readonly Pod[]> {
    return this.#reader.podsOnNode(nodeName);
  }

  daemonSets(): Promise<readonly DaemonSet[]> {
    return this.#reader.daemonSets();
  }

  podDisruptionBudgets(): Promise<readonly PodDisruptionBudget[]> {
    return this.#reader.podDisruptionBudgets();
  }

  persistentVolumes(): Promise<readonly PersistentVolume[]> {
    return this.#reader.persistentVolumes();
  }

  persistentVolumeClaims(): Promise<readonly PersistentVolumeClaim[]> {
    return this.#reader.persistentVolumeClaims();
  }

  storageClasses(): Promise<readonly StorageClass[]> {
    return this.#reader.storageClasses();
  }

  runtimeClasses(): Promise<readonly RuntimeClass[]> {
    return this.#reader.runtimeClasses();
  }

  namespaces(): Promise<readonly Namespace[]> {
    return this.#reader.namespaces();
  }

  patchNodeMetadata(nodeName: string, patch: NodeMetadataPatch): Promise<Node> {
    return this.#nodes.patchNodeMetadata(nodeName, patch);
  }

  registerNode(nodeName: string, registration: NodeRegistration): Promise<Node> {
    return this.#nodes.registerNode(nodeName, registration);
  }

  addFinalizer(nodeName: string, finalizer: string): Promise<Node> {
    return this.#nodes.addFinalizer(nodeName, finalizer);
  }

  removeFinalizer(nodeName: string, finalizer: string): Promise<void> {
    return this.#nodes.removeFinalizer(nodeName, finalizer);
  }

  addTaints(nodeName: string, taints: readonly Taint[]): Promise<Node> {
    return this.#nodes.addTaints(nodeName, taints);
  }

  removeTaints(nodeName: string, taints: readonly Taint[]): Promise<Node> {
    return this.#nodes.removeTaints(nodeName, taints);
  }

  cordon(nodeName: string): Promise<Node> {
    return this.#nodes.cordon(nodeName);
  }

  uncordon(nodeName: string): Promise<Node> {
    return this.#nodes.uncordon(nodeName);
  }

  deleteNode(nodeName: string): Promise<void> {
    return this.#nodes.deleteNode(nodeName);
  }

  evict(pod: PodReference): Promise<EvictionOutcome> {
    return this.#pods.evict(pod);
  }

  deletePod(pod: PodReference, gracePeriodSeconds?: number): Promise<void> {
    return this.#pods.deletePod(pod, gracePeriodSeconds);
  }

  createEvent(event: ClusterEvent): Promise<void> {
    return this.#events.createEvent(event);
  }

  karpenterNodeClaims(): Promise<readonly NodeClaim[]> {
    return this.#karpenterNodeClaims.karpenterNodeClaims();
  }

  releaseKarpenterNodeClaim(name: string): Promise<void> {
    return this.#karpenterNodeClaims.releaseKarpenterNodeClaim(name);
  }
}

/** The Cluster port for the cluster this configuration points at. */
export function kubernetesClusterFrom(
  kubeConfig: KubeConfig,
  options: KubernetesClusterOptions = {},
): Cluster {
  return new KubernetesCluster(apisFrom(kubeConfig), options);
}
