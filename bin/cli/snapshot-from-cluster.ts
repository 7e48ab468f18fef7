/**
 * A snapshot from a live cluster, read-only, for `plan --kubeconfig`: nodes, pods, DaemonSets,
 * volumes and namespaces through the Kubernetes adapter; NodePools and EC2NodeClasses (which
 * Nodesmith keeps in its own state, not in the cluster) from the snapshot given: the -f files or
 * the state table.
 * Loaded lazily so that `plan -f` never pays for the Kubernetes client.
 */
import { kubeConfigFromFile } from '../../functions/adapters/eks/kube-config-file.ts';
import { kubernetesClusterFrom } from '../../functions/adapters/kubernetes/kubernetes-cluster.ts';
import type { PlanningSnapshot } from '../../functions/use-cases/plan/what-if-plan.ts';

export async function snapshotFromCluster(
  kubeconfig: string,
  context: string | undefined,
  given: PlanningSnapshot,
): Promise<PlanningSnapshot> {
  const cluster = kubernetesClusterFrom(kubeConfigFromFile(kubeconfig, context));
  const live = await cluster.snapshot();
  return {
    ...given,
    nodes: [...live.nodes, ...given.nodes],
    pods: [...live.pods, ...given.pods],
    daemonSets: [...live.daemonSets, ...given.daemonSets],
    persistentVolumes: [...live.persistentVolumes, ...given.persistentVolumes],
    persistentVolumeClaims: [...live.persistentVolumeClaims, ...given.persistentVolumeClaims],
    storageClasses: [...live.storageClasses, ...given.storageClasses],
    namespaces: new Map([
      ...live.namespaces.map((n) => [n.name, n.labels] as const),
      ...given.namespaces,
    ]),
  };
}
