/**
 * The interruption function's composition root: the state tables, the cluster (to taint and
 * to write Events) and the work queue, configured from the environment the stack sets. The
 * cluster is reached only when a taint or an Event is due: an event about an instance that is
 * none of the cluster's claims needs neither DescribeCluster nor the API server.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { KubeConfig } from '@kubernetes/client-node';
import { makeDynamoDbStateStore } from '../../adapters/dynamodb/dynamodb-state-store.ts';
import { deployedKubeConfigs } from '../../adapters/eks/deployed-kube-configs.ts';
import { kubernetesClusterFrom } from '../../adapters/kubernetes/kubernetes-cluster.ts';
import { SqsWaker } from '../../adapters/sqs/sqs-waker.ts';
import type { Cluster } from '../../ports/cluster.ts';
import {
  handleInterruption,
  type InterruptionDependencies,
} from '../../use-cases/interruption/handle-interruption.ts';
import { makeInterruptionHandler } from './handler.ts';

function setting(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') {
    throw new Error(`starting the interruption function: ${name} is not set`);
  }
  return value;
}

const region = setting('AWS_REGION');
const clusterName = setting('CLUSTER_NAME');
const clusterSecret = process.env.CLUSTER_SECRET_ARN;
const now = () => new Date();

const state = makeDynamoDbStateStore({
  client: DynamoDBDocumentClient.from(new DynamoDBClient({ region })),
  tables: { state: setting('STATE_TABLE'), nodeClaims: setting('CLAIMS_TABLE') },
});
const waker = new SqsWaker(new SQSClient({ region }), setting('WORK_QUEUE_URL'));
const kubeConfigs = deployedKubeConfigs({
  region,
  clusterName,
  ...(clusterSecret === undefined ? {} : { clusterSecretArn: clusterSecret }),
  now,
});

const clusters = new WeakMap<KubeConfig, Cluster>();

/** The Cluster for the current KubeConfig, made again only when its token was renewed. */
async function currentCluster(): Promise<Cluster> {
  const kubeConfig = await kubeConfigs.current();
  let cluster = clusters.get(kubeConfig);
  if (cluster === undefined) {
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
