/**
 * A snapshot from a live cluster, read-only, for `plan --kubeconfig`: the objects the cluster
 * holds through the Kubernetes adapter, joined to those of the files; NodePools, EC2NodeClasses
 * and NodeOverlays (which Nodesmith keeps in its own state, not in the cluster) from the snapshot
 * given: the -f files or the state table.
 * Loaded lazily so that `plan -f` never pays for the Kubernetes client.
 */
import { kubeConfigFromFile } from '../../functions/adapters/eks/kube-config-file.ts';
import { kubernetesClusterFrom } from '../../functions/adapters/kubernetes/kubernetes-cluster.ts';
import type { ClusterSnapshot } from '../../functions/domain/cluster-snapshot.ts';

export async function snapshotFromCluster(
  kubeconfig: string,
  context: string | undefined,
  given: ClusterSnapshot,
): Promise<ClusterSnapshot> {
  const cluster = kubernetesClusterFrom(kubeConfigFromFile(kubeconfig, context));
  const live = await cluster.snapshot();
  // Files come after the cluster, so a namespace both describe has the files' labels.
  return {
    ...given,
    nodes: [...live.nodes, ...given.nodes],
    pods: [...live.pods, ...given.pods],
    daemonSets: [...live.daemonSets, ...given.daemonSets],
    podDisruptionBudgets: [...live.podDisruptionBudgets, ...given.podDisruptionBudgets],
    persistentVolumes: [...live.persistentVolumes, ...given.persistentVolumes],
    persistentVolumeClaims: [...live.persistentVolumeClaims, ...given.persistentVolumeClaims],
    storageClasses: [...live.storageClasses, ...given.storageClasses],
    runtimeClasses: [...live.runtimeClasses, ...given.runtimeClasses],
    namespaces: [...live.namespaces, ...given.namespaces],
  };
}
