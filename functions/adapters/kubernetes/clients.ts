/**
 * The client-node API methods the adapter calls, and nothing more (docs/design.md §2.3): what the
 * ClusterRole in deploy/rbac.yaml must allow is visible here, and tests could pass any object
 * with these methods.
 */
import {
  AppsV1Api,
  CoreV1Api,
  CustomObjectsApi,
  type KubeConfig,
  NodeV1Api,
  PatchStrategy,
  PolicyV1Api,
  StorageV1Api,
  setHeaderOptions,
  Watch,
} from '@kubernetes/client-node';

/**
 * client-node sends a JSON patch unless told otherwise; node writes use a JSON merge patch,
 * whose maps merge key by key (labels, annotations) and whose lists are replaced whole.
 */
export const MERGE_PATCH = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

/**
 * A strategic merge patch treats `metadata.finalizers` as a set: one finalizer is added or
 * removed (`$deleteFromPrimitiveList`) without replacing the others, as Karpenter removes its own.
 */
export const STRATEGIC_MERGE_PATCH = setHeaderOptions(
  'Content-Type',
  PatchStrategy.StrategicMergePatch,
);

export type CoreApi = Pick<
  CoreV1Api,
  | 'listNode'
  | 'readNode'
  | 'patchNode'
  | 'deleteNode'
  | 'listPodForAllNamespaces'
  | 'deleteNamespacedPod'
  | 'createNamespacedPodEviction'
  | 'listPersistentVolume'
  | 'listPersistentVolumeClaimForAllNamespaces'
  | 'listNamespace'
  | 'createNamespacedEvent'
>;
export type AppsApi = Pick<AppsV1Api, 'listDaemonSetForAllNamespaces'>;
export type PolicyApi = Pick<PolicyV1Api, 'listPodDisruptionBudgetForAllNamespaces'>;
export type StorageApi = Pick<StorageV1Api, 'listStorageClass'>;
export type NodeApi = Pick<NodeV1Api, 'listRuntimeClass'>;
/** Karpenter's NodeClaims, for adoption (deploy/rbac-adoption.yaml). */
export type CustomObjectsClient = Pick<
  CustomObjectsApi,
  | 'listClusterCustomObject'
  | 'getClusterCustomObject'
  | 'patchClusterCustomObject'
  | 'deleteClusterCustomObject'
>;

/** Watches of nodes and pods, which a warm function catches up with (reflector.ts). */
export type WatchClient = Pick<Watch, 'watch'>;

export interface KubernetesApis {
  readonly core: CoreApi;
  readonly apps: AppsApi;
  readonly policy: PolicyApi;
  readonly storage: StorageApi;
  readonly node: NodeApi;
  readonly customObjects: CustomObjectsClient;
  readonly watch: WatchClient;
}

/**
 * One client per API group from a configuration (endpoint, CA, bearer token). The token inside
 * is fixed: build new clients when it is renewed.
 */
export function apisFrom(kubeConfig: KubeConfig): KubernetesApis {
  return {
    core: kubeConfig.makeApiClient(CoreV1Api),
    apps: kubeConfig.makeApiClient(AppsV1Api),
    policy: kubeConfig.makeApiClient(PolicyV1Api),
    storage: kubeConfig.makeApiClient(StorageV1Api),
    node: kubeConfig.makeApiClient(NodeV1Api),
    customObjects: kubeConfig.makeApiClient(CustomObjectsApi),
    watch: new Watch(kubeConfig),
  };
}
