/**
 * The simulated account's EC2, IAM, STS, SSM and Pricing behind one endpoint, with the controller's EC2 cloud
 * provider built as its composition root builds it but with every client's endpoint set to the
 * endpoint: the unchanged adapters over the wire. The account holds the deploy guide's node role
 * and tags its subnets and security groups for the guide's cluster.
 */
import { readFileSync } from 'node:fs';
import { EC2Client } from '@aws-sdk/client-ec2';
import { IAMClient } from '@aws-sdk/client-iam';
import { PricingClient } from '@aws-sdk/client-pricing';
import { SSMClient } from '@aws-sdk/client-ssm';
import type { ClusterSettings } from '../../../functions/adapters/ec2/cluster-settings.ts';
import { Ec2CloudProvider } from '../../../functions/adapters/ec2/ec2-cloud-provider.ts';
import { IamInstanceProfileProvisioner } from '../../../functions/adapters/ec2/iam-instance-profile-provisioner.ts';
import type { PlacementGroup } from '../../../functions/domain/placement-group.ts';
import { readDocuments } from '../../../functions/manifests/documents.ts';
import { parseEC2NodeClass } from '../../../functions/manifests/karpenter/node-class.ts';
import type {
  LaunchableNodeClass,
  LaunchContext,
} from '../../../functions/ports/cloud-provider.ts';
import { accountLookups } from '../../../simulator/aws/account-lookups.ts';
import type { Authorizer } from '../../../simulator/aws/aws-service.ts';
import { Ec2Service } from '../../../simulator/aws/ec2/ec2-service.ts';
import { type AwsEndpoint, startAwsEndpoint } from '../../../simulator/aws/endpoint.ts';
import { IamService } from '../../../simulator/aws/iam/iam-service.ts';
import { pricingService } from '../../../simulator/aws/pricing/pricing-service.ts';
import { SimulatedParameters } from '../../../simulator/aws/ssm/simulated-parameters.ts';
import { ssmService } from '../../../simulator/aws/ssm/ssm-service.ts';
import { StsService } from '../../../simulator/aws/sts/sts-service.ts';
import { SimulatedEc2 } from '../../../simulator/cloud/simulated-ec2.ts';
import type { SimulatedInstance } from '../../../simulator/cloud/simulated-instance.ts';
import type { AuthorizationLookups } from '../../../simulator/iam/authorization-lookups.ts';
import { SimulatedClock } from '../../../simulator/simulated-clock.ts';
import { T0 } from '../../contracts/state-fixtures.ts';

export const CLUSTER = 'shop-prod';
export const REGION = 'us-east-1';
export const ZONES = ['us-east-1a', 'us-east-1b'];
export const CONTROLLER_KEY = 'AKIACONTROLLER000001';
export const CONTROLLER_ROLE = 'arn:aws:iam::111122223333:role/nodesmith-controller';
export const ACCOUNT = '111122223333';
export const NODE_ROLE = 'KarpenterNodeRole-shop-prod';

/** The EC2NodeClass of the deploy guide (deploy/nodepool.yaml), as `pools apply` reads it. */
export function theGuidesNodeClass(): LaunchableNodeClass {
  const guide = readFileSync(new URL('../../../deploy/nodepool.yaml', import.meta.url), 'utf8');
  const document = readDocuments(guide, 'deploy/nodepool.yaml').find(
    (d) => d.kind === 'EC2NodeClass',
  );
  return parseEC2NodeClass(document?.object);
}

export const CLUSTER_SETTINGS: ClusterSettings = {
  name: CLUSTER,
  region: REGION,
  kubernetesVersion: '1.31',
  endpoint: 'https://shop-prod.example.com',
  certificateAuthority: Buffer.from('ca').toString('base64'),
  clusterDns: '10.100.0.10',
};

/** An instance Karpenter launched before the run: it carries the cluster's tag, not Nodesmith's. */
export const KARPENTERS_INSTANCE = 'i-0karpenter0000001';

export function startKarpentersInstance(ec2: SimulatedEc2): void {
  ec2.startForeign({
    instanceId: KARPENTERS_INSTANCE,
    instanceType: 'm5.large',
    zone: 'us-east-1a',
    capacityType: 'on-demand',
    origin: 'karpenter',
    nodeClaim: 'default-kkkkk',
    nodePool: 'default',
  });
}

export interface Twin {
  readonly clock: SimulatedClock;
  readonly ec2: SimulatedEc2;
  readonly endpoint: AwsEndpoint;
  /** The account's EC2 as the functions call it, for what only it holds (launch templates). */
  readonly ec2Service: Ec2Service;
  readonly clients: { readonly ec2: EC2Client; readonly iam: IAMClient };
  /** What the world's kubelets are told of each launch, in order. */
  readonly launches: { instance: SimulatedInstance; context: LaunchContext }[];
  readonly refreshErrors: string[];
  cloud(): Ec2CloudProvider;
  close(): Promise<void>;
}

export interface TwinOptions {
  /** Builds the authorizer from what the account's services hold; everything is allowed without. */
  readonly authorizer?: (lookups: AuthorizationLookups) => Authorizer;
  /** The account's placement groups. @default none */
  readonly placementGroups?: readonly PlacementGroup[];
}

export async function startTwin(options: TwinOptions = {}): Promise<Twin> {
  const clock = new SimulatedClock(T0);
  const ec2 = new SimulatedEc2({
    clock,
    region: REGION,
    zones: ZONES,
    seed: 1,
    networkTags: { 'karpenter.sh/discovery': CLUSTER },
    ...(options.placementGroups === undefined ? {} : { placementGroups: options.placementGroups }),
  });
  const launches: Twin['launches'] = [];
  ec2.onLaunch((instance, context) => launches.push({ instance, context }));
  const ec2Service = new Ec2Service({ ec2, clusterName: CLUSTER });
  const iam = new IamService({ accountId: ACCOUNT, roles: [NODE_ROLE], now: () => clock.now() });
  const lookups = accountLookups({ ec2: ec2Service, iam });
  const endpoint = await startAwsEndpoint({
    services: [
      ec2Service,
      iam,
      new StsService({ accountId: ACCOUNT }),
      ssmService(new SimulatedParameters(() => clock.now().getTime()), REGION, ACCOUNT),
      pricingService(REGION),
    ],
    ...(options.authorizer === undefined ? {} : { authorizer: options.authorizer(lookups) }),
    credentials: {
      [CONTROLLER_KEY]: { functionName: 'controller', roleArn: CONTROLLER_ROLE },
    },
  });
  const config = {
    endpoint: endpoint.url,
    region: REGION,
    credentials: { accessKeyId: CONTROLLER_KEY, secretAccessKey: 'simulated' },
    // One attempt: a refusal reaches the adapter as it is, without the SDK's real-time backoff.
    maxAttempts: 1,
  };
  const clients = { ec2: new EC2Client(config), iam: new IAMClient(config) };
  const refreshErrors: string[] = [];
  const cloud = () =>
    new Ec2CloudProvider({
      ec2: clients.ec2,
      ssm: new SSMClient(config),
      pricing: new PricingClient(config),
      cluster: CLUSTER_SETTINGS,
      now: () => clock.now(),
      instanceProfiles: new IamInstanceProfileProvisioner(clients.iam),
      onRefreshError: (_err, what) => refreshErrors.push(what),
    });
  return {
    clock,
    ec2,
    endpoint,
    ec2Service,
    clients,
    launches,
    refreshErrors,
    cloud,
    close: () => endpoint.close(),
  };
}
