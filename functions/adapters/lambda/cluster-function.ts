/**
 * How the controller, the interruption function and the API start alike, from the environment
 * the stack sets: the region Lambda runs in, the cluster's name, the state tables, the work queue,
 * and the way to the cluster, with the kubeconfig secret it names (a self-managed cluster) or else
 * on EKS as the function's role. On EKS the cluster's description is made here and handed out, so
 * the controller's launch settings read the same one as its kubeconfig: one DescribeCluster.
 * client-node, the largest part of each bundle, loads with the first KubeConfig asked for, not at
 * import (docs/design.md §7.1): an invocation that never reaches the cluster never compiles it.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { EKSClient } from '@aws-sdk/client-eks';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { Variable } from '../../contract/environment.ts';
import type { StateStore } from '../../ports/state-store.ts';
import type { Waker } from '../../ports/wake.ts';
import { makeDynamoDbStateStore } from '../dynamodb/dynamodb-state-store.ts';
import type { WarmClaimsOptions } from '../dynamodb/warm-claims.ts';
import type { DeployedClusterOptions } from '../eks/deployed-kube-configs.ts';
import { EksClusterDescription } from '../eks/eks-cluster-description.ts';
import type { KubeConfigs } from '../eks/kube-config-provider.ts';
import { SqsWaker } from '../sqs/sqs-waker.ts';
import type { FunctionEnvironment } from './function-environment.ts';

export interface ClusterFunction {
  readonly region: string;
  readonly clusterName: string;
  readonly now: () => Date;
  readonly state: StateStore;
  readonly waker: Waker;
  readonly kubeConfigs: KubeConfigs;
  /** An EKS cluster's description; absent for a self-managed cluster. */
  readonly description: EksClusterDescription | undefined;
}

/** The kubeconfig source as deployed, made with the first `current()`. */
function deployedOnFirstUse(options: DeployedClusterOptions): KubeConfigs {
  let made: Promise<KubeConfigs> | undefined;
  return {
    async current() {
      made ??= import('../eks/deployed-kube-configs.ts').then(({ deployedKubeConfigs }) =>
        deployedKubeConfigs(options),
      );
      return (await made).current();
    },
  };
}

export interface ClusterFunctionOptions {
  /** Keep the claims between passes (the controller: docs/state.md, "Warm claims"). */
  readonly warmClaims?: WarmClaimsOptions;
}

export function startClusterFunction(
  env: FunctionEnvironment,
  options: ClusterFunctionOptions = {},
): ClusterFunction {
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
    ...(options.warmClaims === undefined ? {} : { warmClaims: options.warmClaims }),
  });
  const waker = new SqsWaker(new SQSClient({ region }), env.required(Variable.workQueueUrl));
  if (clusterSecretArn !== undefined) {
    const kubeConfigs = deployedOnFirstUse({ region, clusterName, clusterSecretArn, now });
    return { region, clusterName, now, state, waker, kubeConfigs, description: undefined };
  }
  const eks = new EKSClient({ region });
  const description = new EksClusterDescription({ eks, clusterName, now });
  const kubeConfigs = deployedOnFirstUse({ region, clusterName, now, eks, description });
  return { region, clusterName, now, state, waker, kubeConfigs, description };
}
