/**
 * The API function's composition root: the state tables and the work queue from the environment
 * the stack sets; the cluster, for the dry run, reached as the controller reaches it (EKS with
 * the function's IAM identity, or the kubeconfig secret of a self-managed cluster). Instance
 * types for the dry run come from the bundled catalog and prices, as `nodesmith plan` uses them.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { BundledInstanceTypes } from '../../adapters/bundled/bundled-instance-types.ts';
import { makeDynamoDbStateStore } from '../../adapters/dynamodb/dynamodb-state-store.ts';
import { deployedKubeConfigs } from '../../adapters/eks/deployed-kube-configs.ts';
import { kubernetesClusterFrom } from '../../adapters/kubernetes/kubernetes-cluster.ts';
import { SqsWaker } from '../../adapters/sqs/sqs-waker.ts';
import { onDemandPrices } from '../../domain/instance-types/prices.ts';
import {
  STARTING_LIMITS_VARIABLE,
  startingLimits,
} from '../../manifests/nodesmith/starting-limits.ts';
import { liveDryRun } from '../../use-cases/plan/live-dry-run.ts';
import { makeApiHandler } from './handler.ts';

function setting(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`starting the API: ${name} is not set`);
  return value;
}

const region = setting('AWS_REGION');
const clusterName = setting('CLUSTER_NAME');
const clusterSecret = process.env.CLUSTER_SECRET_ARN;
const now = () => new Date();
const logger = new Logger({ serviceName: 'nodesmith-api' });
const state = makeDynamoDbStateStore({
  client: DynamoDBDocumentClient.from(new DynamoDBClient({ region })),
  tables: { state: setting('STATE_TABLE'), nodeClaims: setting('CLAIMS_TABLE') },
});
const kubeConfigs = deployedKubeConfigs({
  region,
  clusterName,
  ...(clusterSecret === undefined ? {} : { clusterSecretArn: clusterSecret }),
  now,
});
const instanceTypes = new BundledInstanceTypes({ region, prices: onDemandPrices(region) });
const limits = startingLimits(process.env[STARTING_LIMITS_VARIABLE]);

export const handler = makeApiHandler({
  state,
  waker: new SqsWaker(new SQSClient({ region }), setting('WORK_QUEUE_URL')),
  now,
  logger,
  ...(limits === undefined ? {} : { startingLimits: limits }),
  dryRun: async () =>
    liveDryRun({
      cluster: kubernetesClusterFrom(await kubeConfigs.current()),
      state,
      instanceTypes,
      region,
      ...(limits === undefined ? {} : { startingLimits: limits }),
    }),
});
