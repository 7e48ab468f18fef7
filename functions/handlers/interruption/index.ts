/**
 * The interruption function's composition root: the state tables, the cluster (to taint and
 * to write Events) and the work queue, configured from the environment the stack sets.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { makeDynamoDbStateStore } from '../../adapters/dynamodb/dynamodb-state-store.ts';
import { deployedKubeConfigs } from '../../adapters/eks/deployed-kube-configs.ts';
import { kubernetesClusterFrom } from '../../adapters/kubernetes/kubernetes-cluster.ts';
import { SqsWaker } from '../../adapters/sqs/sqs-waker.ts';
import { handleInterruption } from '../../use-cases/interruption/handle-interruption.ts';
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

export const handler = makeInterruptionHandler({
  logger: new Logger({ serviceName: 'nodesmith-interruption' }),
  handle: async (message) =>
    handleInterruption(
      { state, cluster: kubernetesClusterFrom(await kubeConfigs.current()), waker, clock: { now } },
      message,
    ),
});
