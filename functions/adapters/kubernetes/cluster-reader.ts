/**
 * The cluster's objects as domain types, every list read page by page across all namespaces.
 * Pods are narrowed by the server with field selectors, so a cluster full of finished Jobs does
 * not cost a pass their transfer.
 */
import type { ClusterObjects } from '../../domain/cluster-snapshot.ts';
import type { ClusterReader } from '../../ports/cluster.ts';
import type { KubernetesApis } from './clients.ts';
import { type ApiCall, request } from './errors.ts';
import { escapeFieldValue, NOT_TERMINAL, PENDING } from './field-selectors.ts';
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
import type { NodesThenPods, WarmSnapshot } from './warm-snapshot.ts';

type ListQuery = PageQuery & { readonly fieldSelector?: string };

/** One page of a kind's objects across all namespaces, mapped to the domain type. */
type Listing<TDomain> = (apis: KubernetesApis, query: ListQuery) => Promise<Page<TDomain>>;

function listing<TObject, TDomain>(
  page: (apis: KubernetesApis, query: ListQuery) => Promise<Page<TObject>>,
  map: (object: TObject) => TDomain,
): Listing<TDomain> {
  return async (apis, query) => {
    const read = await page(apis, query);
    return { ...read, items: read.items.map(map) };
  };
}

type Kind = keyof ClusterObjects;

/** Keyed as the snapshot names each kind; the API's resource name is that key in lower case. */
const LISTINGS: { readonly [K in Kind]: Listing<ClusterObjects[K][number]> } = {
  nodes: listing((k, q) => k.core.listNode(q), fromV1Node),
  pods: listing((k, q) => k.core.listPodForAllNamespaces(q), fromV1Pod),
  daemonSets: listing((k, q) => k.apps.listDaemonSetForAllNamespaces(q), fromV1DaemonSet),
  podDisruptionBudgets: listing(
    (k, q) => k.policy.listPodDisruptionBudgetForAllNamespaces(q),
    fromV1PodDisruptionBudget,
  ),
  persistentVolumes: listing((k, q) => k.core.listPersistentVolume(q), fromV1PersistentVolume),
  persistentVolumeClaims: listing(
    (k, q) => k.core.listPersistentVolumeClaimForAllNamespaces(q),
    fromV1PersistentVolumeClaim,
  ),
  storageClasses: listing((k, q) => k.storage.listStorageClass(q), fromV1StorageClass),
  // The RuntimeClass admission plugin has already copied a class's overhead into each admitted
  // pod's spec.overhead, which the planner prefers (domain/scheduling/pod-requests.ts), so a live
  // plan comes out the same with or without them. They are read so that the snapshot holds the
  // same kinds whether it comes from the cluster or from files (a dump's pods may never have
  // been admitted).
  runtimeClasses: listing((k, q) => k.node.listRuntimeClass(q), fromV1RuntimeClass),
  namespaces: listing((k, q) => k.core.listNamespace(q), fromV1Namespace),
};

/** The record's promises awaited together, as Promise.all awaits a list: the first rejection wins. */
async function allOf<T extends Record<string, Promise<unknown>>>(
  promises: T,
): Promise<{ [K in keyof T]: Awaited<T[K]> }> {
  const entries = Object.entries(promises);
  const values = await Promise.all(entries.map(([, promise]) => promise));
  return Object.fromEntries(entries.map(([key], i) => [key, values[i]])) as {
    [K in keyof T]: Awaited<T[K]>;
  };
}

export class KubernetesClusterReader implements ClusterReader {
  readonly #apis: KubernetesApis;
  readonly #pageSize: number;
  readonly #warm: WarmSnapshot | undefined;

  constructor(apis: KubernetesApis, pageSize: number, warm?: WarmSnapshot) {
    this.#apis = apis;
    this.#pageSize = pageSize;
    this.#warm = warm;
  }

  async snapshot(): Promise<ClusterObjects> {
    // Nodes strictly first (docs/design.md §3.3); the rest may come in any order.
    const { nodes, pods } = await this.#nodesThenPods();
    const rest = await allOf({
      pods,
      daemonSets: this.daemonSets(),
      podDisruptionBudgets: this.podDisruptionBudgets(),
      persistentVolumes: this.persistentVolumes(),
      persistentVolumeClaims: this.persistentVolumeClaims(),
      storageClasses: this.storageClasses(),
      runtimeClasses: this.runtimeClasses(),
      namespaces: this.namespaces(),
    });
    return { nodes, ...rest };
  }

  /**
   * Nodes, and pods on their way once nodes are read: kept and caught up when warm
   * (docs/design.md §3.3.1), listed otherwise.
   */
  async #nodesThenPods(): Promise<NodesThenPods> {
    if (this.#warm !== undefined) return this.#warm.nodesThenPods(this.#apis, this.#pageSize);
    const nodes = await this.#list('nodes');
    return { nodes, pods: this.#list('pods', NOT_TERMINAL) };
  }

  readonly nodes = () => this.#list('nodes');
  readonly pendingPods = () => this.#list('pods', PENDING);
  readonly pods = () => this.#list('pods', NOT_TERMINAL);
  readonly podsOnNode = (nodeName: string) =>
    this.#list('pods', `spec.nodeName=${escapeFieldValue(nodeName)},${NOT_TERMINAL}`);
  readonly daemonSets = () => this.#list('daemonSets');
  readonly podDisruptionBudgets = () => this.#list('podDisruptionBudgets');
  readonly persistentVolumes = () => this.#list('persistentVolumes');
  readonly persistentVolumeClaims = () => this.#list('persistentVolumeClaims');
  readonly storageClasses = () => this.#list('storageClasses');
  readonly runtimeClasses = () => this.#list('runtimeClasses');
  readonly namespaces = () => this.#list('namespaces');

  /** Every object of one kind, page by page; pods narrowed by the server with a field selector. */
  #list<K extends Kind>(kind: K, fieldSelector?: string): Promise<ClusterObjects[K][number][]> {
    const resource = kind.toLowerCase();
    const call: ApiCall = { doing: `listing ${resource}`, verb: 'list', resource };
    const page = LISTINGS[kind];
    const fetchPage = (query: PageQuery) =>
      page(this.#apis, fieldSelector === undefined ? query : { ...query, fieldSelector });
    return request(call, () => readAllPages(fetchPage, this.#pageSize));
  }
}
