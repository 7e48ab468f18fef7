/**
 * The interruption function's composition root: the state tables, the cluster (to taint and
 * to write Events) and the work queue, configured from the environment the stack sets. The
 * cluster is reached only when a taint or an Event is due: an event about an instance that is
 * none of the cluster's claims needs neither DescribeCluster nor the API server.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import type { KubeConfig } from '@kubernetes/client-node';
import { startClusterFunction } from '../../adapters/lambda/cluster-function.ts';
import { functionEnvironment } from '../../adapters/lambda/function-environment.ts';
import type { Cluster } from '../../ports/cluster.ts';
import {
  handleInterruption,
  type InterruptionDependencies,
} from '../../use-cases/interruption/handle-interruption.ts';
import { makeInterruptionHandler } from './handler.ts';

const { now, state, waker, kubeConfigs } = startClusterFunction(
  functionEnvironment('the interruption function'),
);

const clusters = new WeakMap<KubeConfig, Cluster>();

/**
 * The Cluster for the current KubeConfig, made again only when its token was renewed. The
 * Kubernetes adapter, with client-node, loads with the first taint or Event due.
 */
async function currentCluster(): Promise<Cluster> {
  const kubeConfig = await kubeConfigs.current();
  let cluster = clusters.get(kubeConfig);
  if (cluster === undefined) {
    const { kubernetesClusterFrom } = await import(
      '../../adapters/kubernetes/kubernetes-cluster.ts'
    );
    cluster = kubernetesClusterFrom(kubeConfig);
    clusters.set(kubeConfig, cluster);
  }
  return cluster;
}

const cluster: InterruptionDependencies['cluster'] = {
  addTaints: async (nodeName, taints) => (await currentCluster()).addTaints(nodeName, taints),
  createEvent: async (event) => (await currentCluster()).createEvent(event),
};

export const handler = makeInterruptionHandler({
  logger: new Logger({ serviceName: 'nodesmith-interruption' }),
  handle: (message) => handleInterruption({ state, cluster, waker, clock: { now } }, message),
});
