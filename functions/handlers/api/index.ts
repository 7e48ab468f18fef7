/**
 * The API function's composition root: the state tables and the work queue from the environment
 * the stack sets; the cluster, for the dry run, reached as the controller reaches it (EKS with
 * the function's IAM identity, or the kubeconfig secret of a self-managed cluster). Instance
 * types for the dry run come from the bundled catalog and prices, as `nodesmith plan` uses them;
 * the dry run loads with the first request for one (dry-run.ts says why).
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { startClusterFunction } from '../../adapters/lambda/cluster-function.ts';
import { functionEnvironment } from '../../adapters/lambda/function-environment.ts';
import { Variable } from '../../contract/environment.ts';
import { startingLimits } from '../../manifests/nodesmith/starting-limits.ts';
import type { LiveDryRun } from '../../use-cases/plan/live-dry-run.ts';
import { makeApiHandler } from './handler.ts';

const env = functionEnvironment('the API');
const { region, now, state, waker, kubeConfigs } = startClusterFunction(env);
const logger = new Logger({ serviceName: 'nodesmith-api' });
const limits = startingLimits(env.optional(Variable.clusterLimits));

let dryRun: Promise<() => Promise<LiveDryRun>> | undefined;

export const handler = makeApiHandler({
  state,
  waker,
  now,
  logger,
  ...(limits === undefined ? {} : { startingLimits: limits }),
  dryRun: async () => {
    dryRun ??= import('./dry-run.ts').then(({ makeDryRun }) =>
      makeDryRun({ region, state, kubeConfigs, startingLimits: limits }),
    );
    return (await dryRun)();
  },
});
