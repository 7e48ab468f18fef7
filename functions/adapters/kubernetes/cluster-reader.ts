/**
 * The cluster's objects as domain types, every list read page by page across all namespaces.
 * Pods are narrowed by the server with field selectors, so a cluster full of finished Jobs does
 * not cost a pass their transfer.
 */
import type { DaemonSet } from '../../domain/daemon-set.ts';
import type { Node } from '../../domain/node.ts';
import type { Pod } from '../../domain/pod.ts';
import type { PodDisruptionBudget } from '../../domain/pod-disruption-budget.ts';
import type {
  PersistentVolume,
  PersistentVolumeClaim,
  StorageClass,
} from '../../domain/volumes.ts';
import type { ClusterReader, ClusterSnapshot, Namespace } from '../../ports/cluster.ts';
import type { KubernetesApis } from './clients.ts';
import { type ApiCall, request } from './errors.ts';
import {
  fromV1DaemonSet,
  fromV1Namespace,
  fromV1Node,
  fromV1PersistentVolume,
  fromV1PersistentVolumeClaim,
  fromV1Pod,
  fromV1PodDisruptionBudget,
  fromV1StorageClass,
} from './mappers.ts';
import { type Page, type PageQuery, readAllPages } from './pages.ts';

const NOT_TERMINAL = 'status.phase!=Succeeded,status.phase!=Failed';
/** An empty value selects pods whose `spec.nodeName` is unset. */
const PENDING = 'spec.nodeName=,status.phase=Pending';

/** `fields.EscapeValue`: a node name never needs it, but a selector must not be injectable. */
function escapeFieldValue(value: string): string {
  return value.replace(/[\\,=]/g, (char) => `\\${char}`);
}

function listing(resource: string): ApiCall {
  return { doing: `listing ${resource}`, verb: 'list', resource };
}

export class KubernetesClusterReader implements ClusterReader {
  readonly #apis: KubernetesApis;
  readonly #pageSize: number;

  constructor(apis: KubernetesApis, pageSize: number) {
    this.#apis = apis;
    this.#pageSize = pageSize;
  }

  async snapshot(): Promise<ClusterSnapshot> {
    // Nodes strictly first (DESIGN §1 step 2); the rest may come in any order.
    const nodes = await this.nodes();
    const [
      pods,
      daemonSets,
      podDisruptionBudgets,
      persistentVolumes,
      persistentVolumeClaims,
      storageClasses,
      namespaces,
    ] = await Promise.all([
      this.pods(),
      this.daemonSets(),
      this.podDisruptionBudgets(),
      this.persistentVolumes(),
      this.persistentVolumeClaims(),
      this.storageClasses(),
      this.namespaces(),
    ]);
    return {
      nodes,
      pods,
      daemonSets,
      podDisruptionBudgets,
      persistentVolumes,
      persistentVolumeClaims,
      storageClasses,
      namespaces,
    };
  }

  nodes(): Promise<readonly Node[]> {
    return this.#list(listing('nodes'), (q) => this.#apis.core.listNode(q), fromV1Node);
  }

  pendingPods(): Promise<readonly Pod[]> {
    return this.#pods(PENDING);
  }

  pods(): Promise<readonly Pod[]> {
    return this.#pods(NOT_TERMINAL);
  }

  podsOnNode(nodeName: string): Promise<readonly Pod[]> {
    return this.#pods(`spec.nodeName=${escapeFieldValue(nodeName)},${NOT_TERMINAL}`);
  }

  daemonSets(): Promise<readonly DaemonSet[]> {
    const apps = this.#apis.apps;
    return this.#list(
      listing('daemonsets'),
      (q) => apps.listDaemonSetForAllNamespaces(q),
      fromV1DaemonSet,
    );
  }

  podDisruptionBudgets(): Promise<readonly PodDisruptionBudget[]> {
    const policy = this.#apis.policy;
    return this.#list(
      listing('poddisruptionbudgets'),
      (q) => policy.listPodDisruptionBudgetForAllNamespaces(q),
      fromV1PodDisruptionBudget,
    );
  }

  persistentVolumes(): Promise<readonly PersistentVolume[]> {
    const core = this.#apis.core;
    return this.#list(
      listing('persistentvolumes'),
      (q) => core.listPersistentVolume(q),
      fromV1PersistentVolume,
    );
  }

  persistentVolumeClaims(): Promise<readonly PersistentVolumeClaim[]> {
    const core = this.#apis.core;
    return this.#list(
      listing('persistentvolumeclaims'),
      (q) => core.listPersistentVolumeClaimForAllNamespaces(q),
      fromV1PersistentVolumeClaim,
    );
  }

  storageClasses(): Promise<readonly StorageClass[]> {
    const storage = this.#apis.storage;
    return this.#list(
      listing('storageclasses'),
      (q) => storage.listStorageClass(q),
      fromV1StorageClass,
    );
  }

  namespaces(): Promise<readonly Namespace[]> {
    const core = this.#apis.core;
    return this.#list(listing('namespaces'), (q) => core.listNamespace(q), fromV1Namespace);
  }

  #pods(fieldSelector: string): Promise<readonly Pod[]> {
    const core = this.#apis.core;
    return this.#list(
      listing('pods'),
      (q) => core.listPodForAllNamespaces({ ...q, fieldSelector }),
      fromV1Pod,
    );
  }

  async #list<TObject, TDomain>(
    call: ApiCall,
    fetchPage: (query: PageQuery) => Promise<Page<TObject>>,
    map: (object: TObject) => TDomain,
  ): Promise<readonly TDomain[]> {
    const objects = await request(call, () => readAllPages(fetchPage, this.#pageSize));
    return objects.map(map);
  }
}
