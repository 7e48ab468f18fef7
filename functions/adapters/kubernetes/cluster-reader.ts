/**
 * The cluster's objects as domain types, every list read page by page across all namespaces.
 * Pods are narrowed by the server with field selectors, so a cluster full of finished Jobs does
 * not cost a pass their transfer.
 */

import type { ClusterObjects } from '../../domain/cluster-snapshot.ts';
import type { DaemonSet } from '../../domain/daemon-set.ts';
import type { Node } from '../../domain/node.ts';
import type { Pod } from '../../domain/pod.ts';
import type { PodDisruptionBudget } from '../../domain/pod-disruption-budget.ts';
import type {
  PersistentVolume,
  PersistentVolumeClaim,
  RuntimeClass,
  StorageClass,
} from '../../domain/volumes.ts';
import type { ClusterReader, Namespace } from '../../ports/cluster.ts';
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
  fromV1RuntimeClass,
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

/** How one kind is listed across all namespaces and mapped to its domain type. */
interface Listing<TObject, TDomain> {
  readonly resource: string;
  readonly page: (apis: KubernetesApis, query: ListQuery) => Promise<Page<TObject>>;
  readonly map: (object: TObject) => TDomain;
}

type ListQuery = PageQuery & { readonly fieldSelector?: string };

function listing<TObject, TDomain>(
  resource: string,
  page: (apis: KubernetesApis, query: ListQuery) => Promise<Page<TObject>>,
  map: (object: TObject) => TDomain,
): Listing<TObject, TDomain> {
  return { resource, page, map };
}

const LISTINGS = {
  nodes: listing('nodes', (apis, q) => apis.core.listNode(q), fromV1Node),
  pods: listing('pods', (apis, q) => apis.core.listPodForAllNamespaces(q), fromV1Pod),
  daemonSets: listing(
    'daemonsets',
    (apis, q) => apis.apps.listDaemonSetForAllNamespaces(q),
    fromV1DaemonSet,
  ),
  podDisruptionBudgets: listing(
    'poddisruptionbudgets',
    (apis, q) => apis.policy.listPodDisruptionBudgetForAllNamespaces(q),
    fromV1PodDisruptionBudget,
  ),
  persistentVolumes: listing(
    'persistentvolumes',
    (apis, q) => apis.core.listPersistentVolume(q),
    fromV1PersistentVolume,
  ),
  persistentVolumeClaims: listing(
    'persistentvolumeclaims',
    (apis, q) => apis.core.listPersistentVolumeClaimForAllNamespaces(q),
    fromV1PersistentVolumeClaim,
  ),
  storageClasses: listing(
    'storageclasses',
    (apis, q) => apis.storage.listStorageClass(q),
    fromV1StorageClass,
  ),
  // The RuntimeClass admission plugin has already copied a class's overhead into each admitted
  // pod's spec.overhead, which the planner prefers (domain/scheduling/pod-requests.ts), so a live
  // plan comes out the same with or without them. They are read so that the snapshot holds the
  // same kinds whether it comes from the cluster or from files (a dump's pods may never have
  // been admitted).
  runtimeClasses: listing(
    'runtimeclasses',
    (apis, q) => apis.node.listRuntimeClass(q),
    fromV1RuntimeClass,
  ),
  namespaces: listing('namespaces', (apis, q) => apis.core.listNamespace(q), fromV1Namespace),
};

export class KubernetesClusterReader implements ClusterReader {
  readonly #apis: KubernetesApis;
  readonly #pageSize: number;

  constructor(apis: KubernetesApis, pageSize: number) {
    this.#apis = apis;
    this.#pageSize = pageSize;
  }

  async snapshot(): Promise<ClusterObjects> {
    // Nodes strictly first (docs/design.md §3.3); the rest may come in any order.
    const nodes = await this.nodes();
    const [
      pods,
      daemonSets,
      podDisruptionBudgets,
      persistentVolumes,
      persistentVolumeClaims,
      storageClasses,
      runtimeClasses,
      namespaces,
    ] = await Promise.all([
      this.pods(),
      this.daemonSets(),
      this.podDisruptionBudgets(),
      this.persistentVolumes(),
      this.persistentVolumeClaims(),
      this.storageClasses(),
      this.runtimeClasses(),
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
      runtimeClasses,
      namespaces,
    };
  }

  nodes(): Promise<readonly Node[]> {
    return this.#list(LISTINGS.nodes);
  }

  pendingPods(): Promise<readonly Pod[]> {
    return this.#list(LISTINGS.pods, PENDING);
  }

  pods(): Promise<readonly Pod[]> {
    return this.#list(LISTINGS.pods, NOT_TERMINAL);
  }

  podsOnNode(nodeName: string): Promise<readonly Pod[]> {
    return this.#list(LISTINGS.pods, `spec.nodeName=${escapeFieldValue(nodeName)},${NOT_TERMINAL}`);
  }

  daemonSets(): Promise<readonly DaemonSet[]> {
    return this.#list(LISTINGS.daemonSets);
  }

  podDisruptionBudgets(): Promise<readonly PodDisruptionBudget[]> {
    return this.#list(LISTINGS.podDisruptionBudgets);
  }

  persistentVolumes(): Promise<readonly PersistentVolume[]> {
    return this.#list(LISTINGS.persistentVolumes);
  }

  persistentVolumeClaims(): Promise<readonly PersistentVolumeClaim[]> {
    return this.#list(LISTINGS.persistentVolumeClaims);
  }

  storageClasses(): Promise<readonly StorageClass[]> {
    return this.#list(LISTINGS.storageClasses);
  }

  runtimeClasses(): Promise<readonly RuntimeClass[]> {
    return this.#list(LISTINGS.runtimeClasses);
  }

  namespaces(): Promise<readonly Namespace[]> {
    return this.#list(LISTINGS.namespaces);
  }

  /** Every object of one kind, page by page; pods narrowed by the server with a field selector. */
  async #list<TObject, TDomain>(
    { resource, page, map }: Listing<TObject, TDomain>,
    fieldSelector?: string,
  ): Promise<readonly TDomain[]> {
    const call: ApiCall = { doing: `listing ${resource}`, verb: 'list', resource };
    const fetchPage = (query: PageQuery) =>
      page(this.#apis, fieldSelector === undefined ? query : { ...query, fieldSelector });
    const objects = await request(call, () => readAllPages(fetchPage, this.#pageSize));
    return objects.map(map);
  }
}
