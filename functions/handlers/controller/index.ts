/**
 * The controller's composition root: the real adapters, configured from the environment the
 * stack sets. An EKS cluster is reached with the function's IAM identity; a self-managed one
 * with the kubeconfig secret named by `CLUSTER_SECRET_ARN`. Clients and caches live for the
 * container, so warm invocations skip discovery: the cluster is described once, for both the
 * kubeconfig and the launch settings, and nodes and pods are caught up rather than listed.
 * EC2NodeClasses that name a `role` get their instance profile from IAM, as Karpenter's do.
 */
import { randomBytes } from 'node:crypto';
import { Logger } from '@aws-lambda-powertools/logger';
import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import type { ClusterSettings } from '../../adapters/ec2/cluster-settings.ts';
import {
  eksClusterSettings,
  selfManagedClusterSettings,
} from '../../adapters/eks/cluster-settings.ts';
import { EventBridgeDecisionPublisher } from '../../adapters/eventbridge/eventbridge-decision-publisher.ts';
import type { WarmSnapshot } from '../../adapters/kubernetes/warm-snapshot.ts';
import { startClusterFunction } from '../../adapters/lambda/cluster-function.ts';
import { functionEnvironment } from '../../adapters/lambda/function-environment.ts';
import { Variable } from '../../contract/environment.ts';
import { startingLimits } from '../../manifests/nodesmith/starting-limits.ts';
import type { CloudProvider } from '../../ports/cloud-provider.ts';
import { CoalescingWaker } from '../../use-cases/controller/coalescing-waker.ts';
import { collectInstanceProfiles } from '../../use-cases/controller/collect-instance-profiles.ts';
import { runControllerPass } from '../../use-cases/controller/controller-pass.ts';
import { DEFAULT_PASS_SETTINGS } from '../../use-cases/controller/pass-dependencies.ts';
import type { PassReport } from '../../use-cases/controller/pass-report.ts';
import type { ControllerCloud } from './cloud.ts';
import { makeControllerHandler } from './handler.ts';

const env = functionEnvironment('the controller');
// Claims, like nodes and pods, are kept for the container's next pass (docs/design.md §3.3.1).
const { region, clusterName, now, state, waker, kubeConfigs, description } = startClusterFunction(
  env,
  { warmClaims: {} },
);
const logger = new Logger({ serviceName: 'nodesmith-controller' });
const decisions = new EventBridgeDecisionPublisher({
  client: new EventBridgeClient({ region }),
  eventBusName: env.required(Variable.eventBusName),
  clusterName,
  logger,
});

const limits = startingLimits(env.optional(Variable.clusterLimits));
/** Set by the stack only with `adoptKarpenterNodes`, beside the IAM that lets it tag them. */
const adoptKarpenterNodes = env.optional(Variable.adoptKarpenterNodes) === 'true';

let aws: Promise<ControllerCloud> | undefined;

/** EC2, SSM, Pricing and IAM, loaded with the first pass that needs them (cloud.ts says why). */
function controllerCloud(): Promise<ControllerCloud> {
  aws ??= import('./cloud.ts').then(
    ({ ControllerCloud }) =>
      new ControllerCloud({
        region,
        clusterName,
        now,
        onRefreshError: (err, what) =>
          logger.warn(`refreshing ${what} failed`, { error: String(err) }),
      }),
  );
  return aws;
}

/** Karpenter looks for unused instance profiles every 30 minutes. */
const PROFILE_COLLECTION_MS = 30 * 60_000;
let nextProfileCollection = 0;

/** After a pass that ran: profiles of classes gone go too. A failure waits for the next round. */
async function collectUnusedProfiles(): Promise<void> {
  if (now().getTime() < nextProfileCollection) return;
  nextProfileCollection = now().getTime() + PROFILE_COLLECTION_MS;
  try {
    const { profiles } = await controllerCloud();
    const deleted = await collectInstanceProfiles({ state, profiles });
    if (deleted.length > 0) logger.info('deleted unused instance profiles', { deleted });
  } catch (err) {
    logger.warn('collecting unused instance profiles failed', { error: String(err) });
  }
}

/** The CA in the kubeconfig secret, as client-node read it. */
async function secretCa(): Promise<string> {
  const ca = (await kubeConfigs.current()).getCurrentCluster()?.caData;
  if (ca === undefined) {
    throw new Error(`cluster access secret ${env.optional(Variable.clusterSecretArn)} has no CA`);
  }
  return ca;
}

/**
 * What launches need to know about the cluster: EKS describes it; a self-managed one is given
 * as `CLUSTER_ENDPOINT`, `KUBERNETES_VERSION`, `CLUSTER_CA` (base64 PEM, else the secret's) and
 * `SERVICE_CIDR`.
 */
async function clusterSettings(): Promise<ClusterSettings> {
  if (description !== undefined) return eksClusterSettings(description, clusterName, region);
  return selfManagedClusterSettings(
    {
      name: clusterName,
      region,
      kubernetesVersion: env.required(Variable.kubernetesVersion),
      endpoint: env.required(Variable.clusterEndpoint),
      serviceCidr: env.optional(Variable.serviceCidr),
      certificateAuthority: env.optional(Variable.clusterCa),
    },
    secretCa,
  );
}

let cloud: Promise<CloudProvider> | undefined;

/**
 * Built on the first pass: launches need the cluster's settings, which need an AWS call. Kept
 * for the container once built; a failure is not kept, so the next invocation tries again.
 * Exported so that tests can resolve an EC2NodeClass through the provider as deployed.
 */
export function cloudProvider(): Promise<CloudProvider> {
  if (cloud !== undefined) return cloud;
  const building = Promise.all([clusterSettings(), controllerCloud()]).then(([cluster, aws]) =>
    aws.provider(cluster),
  );
  cloud = building;
  building.catch(() => {
    if (cloud === building) cloud = undefined;
  });
  return building;
}

/**
 * Nodes and pods kept for the container's next pass, whichever token its clients carry
 * (docs/design.md §3.3.1); made with the first pass, as the Kubernetes adapter loads.
 */
let warm: WarmSnapshot | undefined;

/** The passes' own wakes, coalesced for the container's life (coalescing-waker.ts). */
const passWaker = new CoalescingWaker(waker, { now });

/** `<pool>-<5 of a-z0-9>`, as Karpenter names NodeClaims. */
function newClaimName(pool: string): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const suffix = [...randomBytes(5)].map((b) => alphabet[b % alphabet.length]).join('');
  return `${pool}-${suffix}`;
}

/**
 * One pass; the lease it takes must outlive the `remainingMs` of this invocation. The
 * Kubernetes adapter, with client-node, loads with the first pass rather than at import
 * (docs/design.md §7.1): the pass needs it all the same, and compiles it then.
 */
async function pass(holder: string, remainingMs: number): Promise<PassReport> {
  const { kubernetesClusterFrom } = await import('../../adapters/kubernetes/kubernetes-cluster.ts');
  const { WarmSnapshot } = await import('../../adapters/kubernetes/warm-snapshot.ts');
  warm ??= new WarmSnapshot();
  const report = await runControllerPass(
    {
      state,
      cluster: kubernetesClusterFrom(await kubeConfigs.current(), { warm }),
      cloud: await cloudProvider(),
      decisions,
      waker: passWaker,
      clock: { now },
      newClaimName,
      holder,
    },
    {
      ...DEFAULT_PASS_SETTINGS,
      region,
      timeoutMs: remainingMs,
      ...(limits === undefined ? {} : { startingLimits: limits }),
      adoptKarpenterNodes,
    },
  );
  if (report.ran) await collectUnusedProfiles();
  return report;
}

export const handler = makeControllerHandler({ logger, pass });
