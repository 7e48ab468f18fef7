/**
 * The API function's composition root: the state tables and the work queue from the environment
 * the stack sets; the cluster, for the dry run, reached as the controller reaches it (EKS with
 * the function's IAM identity, or the kubeconfig secret of a self-managed cluster). Instance
 * types for the dry run come from the bundled catalog and prices, as `nodesmith plan` uses them.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { BundledInstanceTypes } from '../../adapters/bundled/bundled-instance-types.ts';
import { kubernetesClusterFrom } from '../../adapters/kubernetes/kubernetes-cluster.ts';
import { startClusterFunction } from '../../adapters/lambda/cluster-function.ts';
import { functionEnvironment } from '../../adapters/lambda/function-environment.ts';
import { Variable } from '../../contract/environment.ts';
import { onDemandPrices } from '../../domain/instance-types/prices.ts';
import { startingLimits } from '../../manifests/nodesmith/starting-limits.ts';
import { liveDryRun } from '../../use-cases/plan/live-dry-run.ts';
import { makeApiHandler } from './handler.ts';

const env = functionEnvironment('the API');
const { region, now, state, waker, kubeConfigs } = startClusterFunction(env);
const logger = new Logger({ serviceName: 'nodesmith-api' });
const instanceTypes = new BundledInstanceTypes({ region, prices: onDemandPrices(region) });
const limits = startingLimits(env.optional(Variable.clusterLimits));

export const handler = makeApiHandler({
  state,
  waker,
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
