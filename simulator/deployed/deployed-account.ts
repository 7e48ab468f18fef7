/**
 * The AWS account `cdk deploy` leaves behind, in the simulation (docs/design.md §9): the
 * template's queues with their redrive policies, its buses and rules, its secrets, the cluster in
 * EKS, and the services every function reaches through the one endpoint — EC2 over the world's
 * own instances, IAM with the node role, STS, SSM's AMI parameters, the Price List API. What
 * the template names is named as CloudFormation names it (simulator/iam/physical-resources.ts).
 */
import { createHash } from 'node:crypto';
import type { AwsService } from '../aws/aws-service.ts';
import { Ec2Service } from '../aws/ec2/ec2-service.ts';
import { eksService } from '../aws/eks/eks-service.ts';
import { SimulatedEks } from '../aws/eks/simulated-eks.ts';
import { eventBridgeService } from '../aws/eventbridge/eventbridge-service.ts';
import { deliverToQueues } from '../aws/eventbridge/queue-targets.ts';
import { SimulatedEventBridge } from '../aws/eventbridge/simulated-event-bridge.ts';
import { IamService } from '../aws/iam/iam-service.ts';
import { pricingService } from '../aws/pricing/pricing-service.ts';
import { secretsManagerService } from '../aws/secrets-manager/secrets-manager-service.ts';
import { SimulatedSecrets } from '../aws/secrets-manager/simulated-secrets.ts';
import { SqsQueues } from '../aws/sqs/sqs-queues.ts';
import { sqsService } from '../aws/sqs/sqs-service.ts';
import { SimulatedParameters } from '../aws/ssm/simulated-parameters.ts';
import { ssmService } from '../aws/ssm/ssm-service.ts';
import { StsService } from '../aws/sts/sts-service.ts';
import type { SimulatedEc2 } from '../cloud/simulated-ec2.ts';
import { PhysicalResources } from '../iam/physical-resources.ts';
import type { SimulatedAccount } from '../iam/simulated-account.ts';
import type { ResolveValue } from '../lambda/template-resolver.ts';
import { type CloudFormationTemplate, resourcesOfType } from '../synthesis/cloud-assembly.ts';

export interface DeployedAccountOptions {
  readonly template: CloudFormationTemplate;
  readonly account: SimulatedAccount;
  readonly resolve: ResolveValue;
  readonly ec2: SimulatedEc2;
  readonly clusterName: string;
  /** The node role's name (the stack's `nodeRoleArn`): instance profiles are made for it. */
  readonly nodeRole: string;
  readonly apiServerUrl: () => string;
  readonly endpointUrl: () => string;
  readonly now: () => number;
}

export class DeployedAccount {
  readonly accountId: string;
  readonly region: string;
  readonly queues: SqsQueues;
  readonly events: SimulatedEventBridge;
  readonly secrets: SimulatedSecrets;
  readonly ec2: Ec2Service;
  readonly iam: IamService;
  readonly services: readonly AwsService[];

  constructor(options: DeployedAccountOptions) {
    const { account, now } = options;
    this.accountId = account.accountId;
    this.region = account.region;
    const place = { region: account.region, account: account.accountId, now };
    this.queues = new SqsQueues({ ...place, endpointUrl: options.endpointUrl });
    this.events = new SimulatedEventBridge({ ...place, deliver: deliverToQueues(this.queues) });
    this.secrets = new SimulatedSecrets(place);
    const eks = new SimulatedEks({ ...place, apiServerUrl: options.apiServerUrl });
    eks.createCluster({ name: options.clusterName });
    this.ec2 = new Ec2Service({ ec2: options.ec2, clusterName: options.clusterName });
    this.iam = new IamService({
      accountId: account.accountId,
      roles: [options.nodeRole],
      now: () => new Date(now()),
    });
    this.#createQueues(options);
    this.#createBuses(options);
    this.#createSecrets(options);
    this.services = [
      this.ec2,
      this.iam,
      new StsService({ accountId: account.accountId }),
      ssmService(new SimulatedParameters(now), account.region, account.accountId),
      pricingService(account.region),
      sqsService(this.queues),
      eventBridgeService(this.events),
      secretsManagerService(this.secrets),
      eksService(eks),
    ];
  }

  /** Dead-letter queues first, so each queue's redrive policy finds its target. */
  #createQueues({ template, resolve }: DeployedAccountOptions): void {
    const queues = resourcesOfType(template, 'AWS::SQS::Queue');
    const redrives = (p: Record<string, unknown>) => p.RedrivePolicy !== undefined;
    for (const [id, p] of [
      ...queues.filter(([, p]) => !redrives(p)),
      ...queues.filter(([, p]) => redrives(p)),
    ]) {
      const redrive = p.RedrivePolicy as
        | { deadLetterTargetArn: unknown; maxReceiveCount: number }
        | undefined;
      this.queues.create(resolve({ 'Fn::GetAtt': [id, 'QueueName'] }), {
        ...(p.VisibilityTimeout === undefined
          ? {}
          : { visibilityTimeout: Number(p.VisibilityTimeout) }),
        ...(p.MessageRetentionPeriod === undefined
          ? {}
          : { messageRetentionPeriod: Number(p.MessageRetentionPeriod) }),
        ...(p.DelaySeconds === undefined ? {} : { delaySeconds: Number(p.DelaySeconds) }),
        ...(redrive === undefined
          ? {}
          : {
              redrivePolicy: {
                deadLetterTargetArn: resolve(redrive.deadLetterTargetArn),
                maxReceiveCount: Number(redrive.maxReceiveCount),
              },
            }),
      });
    }
  }

  #createBuses({ template, resolve }: DeployedAccountOptions): void {
    this.events.createEventBus('default');
    for (const [id] of resourcesOfType(template, 'AWS::Events::EventBus')) {
      this.events.createEventBus(resolve({ Ref: id }));
    }
  }

  /**
   * A generated secret gets a value made from its name: the simulation's runs repeat, and the
   * value is the simulation's own. With a `SecretStringTemplate` and `GenerateStringKey`, the
   * value goes into the template's JSON under that key, as Secrets Manager puts it.
   */
  #createSecrets({ template, account }: DeployedAccountOptions): void {
    const names = new PhysicalResources(template.Resources, account);
    for (const [id, properties] of resourcesOfType(template, 'AWS::SecretsManager::Secret')) {
      const name = names.nameOf(id);
      const value = createHash('sha256').update(`secret:${name}`).digest('base64url');
      const generate = (properties.GenerateSecretString ?? {}) as Record<string, unknown>;
      const key = generate.GenerateStringKey;
      if (typeof key !== 'string') {
        this.secrets.put(name, value);
        continue;
      }
      const shape = JSON.parse(String(generate.SecretStringTemplate ?? '{}')) as object;
      this.secrets.put(name, JSON.stringify({ ...shape, [key]: value }));
    }
  }
}
