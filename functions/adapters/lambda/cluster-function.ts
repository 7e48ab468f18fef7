/**
 * How the controller, the interruption function and the API start alike, from the environment
 * the stack sets: the region Lambda runs in, the cluster's name, the state tables, the work queue,
 * and the way to the cluster, with the kubeconfig secret it names (a self-managed cluster) or else
 * on EKS as the function's role. On EKS the cluster's description is made here and handed out, so
 * the controller's launch settings read the same one as its kubeconfig: one DescribeCluster.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { EKSClient } from '@aws-sdk/client-eks';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { Variable } from '../../contract/environment.ts';
import type { StateStore } from '../../ports/state-store.ts';
import type { Waker } from '../../ports/wake.ts';
import { makeDynamoDbStateStore } from '../dynamodb/dynamodb-state-store.ts';
import { deployedKubeConfigs } from '../eks/deployed-kube-configs.ts';
import { EksClusterDescription } from '../eks/eks-cluster-description.ts';
import type { KubeConfigProvider } from '../eks/kube-config-provider.ts';
import { SqsWaker } from '../sqs/sqs-waker.ts';
import type { FunctionEnvironment } from './function-environment.ts';

export interface ClusterFunction {
  readonly region: string;
  readonly clusterName: string;
  readonly now: () => Date;
  readonly state: StateStore;
  readonly waker: Waker;
  readonly kubeConfigs: KubeConfigProvider;
  /** An EKS cluster's description; absent for a self-managed cluster. */
  readonly description: EksClusterDescription | undefined;
}

export function startClusterFunction(env: FunctionEnvironment): ClusterFunction {
  const region = env.required('AWS_REGION');
  const clusterName = env.required(Variable.clusterName);
  const clusterSecretArn = env.optional(Variable.clusterSecretArn);
  const now = () => new Date();
  const state = makeDynamoDbStateStore({
    client: DynamoDBDocumentClient.from(new DynamoDBClient({ region })),
    tables: {
      state: env.required(Variable.stateTable),
      nodeClaims: env.required(Variable.claimsTable),
    },
  });
  const waker = new SqsWaker(new SQSClient({ region }), env.required(Variable.workQueueUrl));
  if (clusterSecretArn !== undefined) {
    const kubeConfigs = deployedKubeConfigs({ region, clusterName, clusterSecretArn, now });
    return { region, clusterName, now, state, waker, kubeConfigs, description: undefined };
  }
  const eks = new EKSClient({ region });
  const description = new EksClusterDescription({ eks, clusterName, now });
  const kubeConfigs = deployedKubeConfigs({ region, clusterName, now, eks, description });
  return { region, clusterName, now, state, waker, kubeConfigs, description };
}
