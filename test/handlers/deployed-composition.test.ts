/**
 * Each function's composition root started from exactly the environment the synthesized template
 * gives it, its AWS calls answered by aws-sdk-client-mock: the controller describes the cluster
 * once per container and fails an invocation cleanly when it cannot, and resolves the deploy
 * guide's EC2NodeClass (`role:`) by making its instance profile and launches a claim of it on that
 * profile, and keeps the instance types and prices it built for a warm container's next passes; the
 * interruption function answers an event about an instance that is none of the cluster's without
 * EKS.
 */
import { readFileSync } from 'node:fs';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  CreateFleetCommand,
  CreateLaunchTemplateCommand,
  DescribeImagesCommand,
  DescribeInstanceTypeOfferingsCommand,
  DescribeInstanceTypesCommand,
  DescribeLaunchTemplatesCommand,
  DescribeSecurityGroupsCommand,
  DescribeSpotPriceHistoryCommand,
  DescribeSubnetsCommand,
  EC2Client,
} from '@aws-sdk/client-ec2';
import { DescribeClusterCommand, EKSClient } from '@aws-sdk/client-eks';
import {
  AddRoleToInstanceProfileCommand,
  CreateInstanceProfileCommand,
  GetInstanceProfileCommand,
  IAMClient,
  NoSuchEntityException,
} from '@aws-sdk/client-iam';
import { GetProductsCommand, PricingClient } from '@aws-sdk/client-pricing';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { GetParameterCommand, ParameterNotFound, SSMClient } from '@aws-sdk/client-ssm';
import { DynamoDBDocumentClient, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { SQSEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readDocuments } from '../../functions/manifests/documents.ts';
import { parseEC2NodeClass } from '../../functions/manifests/karpenter/node-class.ts';
import { lambdaContext } from '../../simulator/run/lambda-events.ts';
import { aClaim, aLaunchContext, fixture } from '../adapters/ec2/support.ts';
import { EKS_CONTEXT, SELF_MANAGED_CONTEXT } from '../lib/stack-fixture.ts';
import { templateEnvironments } from './template-environment.ts';

const environments = templateEnvironments(EKS_CONTEXT);

const eks = mockClient(EKSClient);
const dynamodb = mockClient(DynamoDBDocumentClient);
const ec2 = mockClient(EC2Client);
const ssm = mockClient(SSMClient);
const iam = mockClient(IAMClient);
const sqs = mockClient(SQSClient);
const pricing = mockClient(PricingClient);

const CLUSTER = {
  name: 'shop',
  version: '1.31',
  endpoint: 'https://0F1E2D3C.gr7.us-east-1.eks.amazonaws.com',
  certificateAuthority: { data: Buffer.from('-----BEGIN CERTIFICATE-----\n').toString('base64') },
  kubernetesNetworkConfig: { serviceIpv4Cidr: '172.20.0.0/16' },
  status: 'ACTIVE' as const,
};

/** Starts the function as Lambda would: its template environment, the region, the role's keys. */
function startAs(functionId: string, from = environments): void {
  const environment = from[functionId];
  if (environment === undefined) throw new Error(`the template has no function ${functionId}`);
  for (const [name, value] of Object.entries(environment)) vi.stubEnv(name, value);
  vi.stubEnv('AWS_REGION', 'us-east-1');
  vi.stubEnv('AWS_ACCESS_KEY_ID', 'AKIAIOSFODNN7EXAMPLE');
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY');
  vi.stubEnv('AWS_SESSION_TOKEN', 'session');
}

function sqsEvent(body: string): SQSEvent {
  return {
    Records: [
      {
        messageId: 'message-0',
        receiptHandle: 'receipt-0',
        body,
        attributes: {
          ApproximateReceiveCount: '1',
          SentTimestamp: '1764144000000',
          SenderId: 'AIDAIENQZJOLO23YVJ4VO',
          ApproximateFirstReceiveTimestamp: '1764144000000',
        },
        messageAttributes: {},
        md5OfBody: '',
        eventSource: 'aws:sqs',
        eventSourceARN: 'arn:aws:sqs:us-east-1:111122223333:queue',
        awsRegion: 'us-east-1',
      },
    ],
  };
}

const TICK = JSON.stringify({ source: 'schedule', reason: 'tick' });

beforeEach(() => {
  // Another pass holds the lease: each invocation builds what a pass needs, then leaves.
  dynamodb
    .on(UpdateCommand)
    .rejects(new ConditionalCheckFailedException({ message: 'held', $metadata: {} }));
});

afterEach(() => {
  for (const mock of [eks, dynamodb, ec2, ssm, iam, sqs, pricing]) mock.reset();
  vi.unstubAllEnvs();
  vi.resetModules();
});

// The mocks stub the clients' classes; the next file in this worker needs the real ones.
afterAll(() => {
  for (const mock of [eks, dynamodb, ec2, ssm, iam, sqs, pricing]) mock.restore();
});

describe('every composition root', () => {
  it('starts from exactly the environment the template gives it', async () => {
    // Only a self-managed cluster's stack has the audit webhook.
    const selfManaged = templateEnvironments(SELF_MANAGED_CONTEXT);
    const roots = {
      Controller: ['controller', environments],
      Interruption: ['interruption', environments],
      Api: ['api', environments],
      AuditWebhook: ['audit-relay', selfManaged],
      WakeWebhook: ['audit-relay', environments],
      AuditLogs: ['audit-relay', environments],
    } as const;
    for (const [functionId, [folder, from]] of Object.entries(roots)) {
      startAs(functionId, from);
      const root = await import(`../../functions/handlers/${folder}/index.ts`);
      expect(Object.keys(root), functionId).not.toHaveLength(0);
      vi.unstubAllEnvs();
      vi.resetModules();
    }
  });
});

describe('the controller as deployed', () => {
  it('describes the cluster once for four invocations', async () => {
    eks.on(DescribeClusterCommand).resolves({ cluster: CLUSTER });
    startAs('Controller');
    const { handler } = await import('../../functions/handlers/controller/index.ts');
    for (let i = 0; i < 4; i++) {
      const response = await handler(sqsEvent(TICK), lambdaContext(`request-${i}`));
      expect(response.batchItemFailures).toEqual([]);
    }
    expect(dynamodb.commandCalls(UpdateCommand)).toHaveLength(4);
    expect(eks.commandCalls(DescribeClusterCommand)).toHaveLength(1);
  });

  it('fails the invocation whose DescribeCluster fails, and describes again on the next', async () => {
    eks
      .on(DescribeClusterCommand)
      .rejectsOnce(
        Object.assign(new Error('Service Unavailable'), { name: 'ServiceUnavailableException' }),
      )
      .resolves({ cluster: CLUSTER });
    startAs('Controller');
    const { handler } = await import('../../functions/handlers/controller/index.ts');
    await expect(handler(sqsEvent(TICK), lambdaContext('request-0'))).rejects.toThrow(
      'Service Unavailable',
    );
    expect(dynamodb.commandCalls(UpdateCommand)).toHaveLength(0);
    const next = await handler(sqsEvent(TICK), lambdaContext('request-1'));
    expect(next.batchItemFailures).toEqual([]);
    expect(eks.commandCalls(DescribeClusterCommand)).toHaveLength(2);
  });

  /** EKS, EC2, SSM and IAM answering the discovery of the deploy guide's EC2NodeClass. */
  function answerTheGuidesDiscovery() {
    eks.on(DescribeClusterCommand).resolves({ cluster: CLUSTER });
    ec2.on(DescribeSubnetsCommand).resolves(fixture('describe-subnets'));
    ec2.on(DescribeSecurityGroupsCommand).resolves(fixture('describe-security-groups'));
    ec2.on(DescribeImagesCommand).resolves(fixture('describe-images-al2023'));
    ssm
      .on(GetParameterCommand)
      .callsFake(({ Name }: { Name: string }) =>
        Name.includes('/1.31/amazon-linux-2023/')
          ? { Parameter: { Name, Type: 'String', Value: 'ami-0a1b2c3d4e5f60001', Version: 1 } }
          : Promise.reject(new ParameterNotFound({ message: 'not found', $metadata: {} })),
      );
    iam
      .on(GetInstanceProfileCommand)
      .rejects(new NoSuchEntityException({ message: 'no such profile', $metadata: {} }));
    iam.on(CreateInstanceProfileCommand).resolves({});
    iam.on(AddRoleToInstanceProfileCommand).resolves({});
    const guide = readFileSync(new URL('../../deploy/nodepool.yaml', import.meta.url), 'utf8');
    const document = readDocuments(guide, 'deploy/nodepool.yaml').find(
      (d) => d.kind === 'EC2NodeClass',
    );
    return parseEC2NodeClass(document?.object);
  }

  it('resolves the deploy guide’s EC2NodeClass, making the instance profile for its role', async () => {
    const nodeClass = answerTheGuidesDiscovery();
    startAs('Controller');
    const { cloudProvider } = await import('../../functions/handlers/controller/index.ts');
    const resolved = await (await cloudProvider()).resolveNodeClass(nodeClass);
    expect(resolved.instanceProfile).toMatch(/^shop_\d+$/);
    expect(iam.commandCalls(CreateInstanceProfileCommand)[0]?.args[0].input).toMatchObject({
      InstanceProfileName: resolved.instanceProfile,
      Path: '/nodesmith/',
    });
    expect(iam.commandCalls(AddRoleToInstanceProfileCommand)[0]?.args[0].input).toEqual({
      InstanceProfileName: resolved.instanceProfile,
      RoleName: 'KarpenterNodeRole-shop-prod',
    });
  });

  it('launches a claim of the deploy guide’s EC2NodeClass on the instance profile it made', async () => {
    // Prepare
    const nodeClass = answerTheGuidesDiscovery();
    ec2.on(DescribeLaunchTemplatesCommand).rejects(
      Object.assign(new Error('no such template'), {
        name: 'InvalidLaunchTemplateName.NotFoundException',
      }),
    );
    ec2.on(CreateLaunchTemplateCommand).resolves(fixture('create-launch-template'));
    ec2.on(CreateFleetCommand).resolves(fixture('create-fleet-launched'));
    startAs('Controller');
    const { cloudProvider } = await import('../../functions/handlers/controller/index.ts');

    // Act
    const cloud = await cloudProvider();
    const instance = await cloud.launch(
      aClaim({ nodeClass: nodeClass.metadata.name }),
      aLaunchContext({ nodeClass }),
    );

    // Assess: the launch template names the profile made for the guide's role
    const made = iam.commandCalls(CreateInstanceProfileCommand)[0]?.args[0].input;
    const template = ec2.commandCalls(CreateLaunchTemplateCommand)[0]?.args[0].input;
    expect(made?.InstanceProfileName).toMatch(/^shop_\d+$/);
    expect(template?.LaunchTemplateData?.IamInstanceProfile).toEqual({
      Name: made?.InstanceProfileName,
    });
    expect(ec2.commandCalls(CreateFleetCommand)).toHaveLength(1);
    expect(instance.instanceId).toBe('i-0123456789abcdef0');
  });
});

describe('the controller in a warm container', () => {
  it('keeps the instance types and prices it built for the next passes', async () => {
    // Prepare: EC2 and the Pricing API as the adapter tests answer them
    eks.on(DescribeClusterCommand).resolves({ cluster: CLUSTER });
    ec2.on(DescribeSubnetsCommand).resolves(fixture('describe-subnets'));
    ec2.on(DescribeInstanceTypesCommand).resolves(fixture('describe-instance-types'));
    ec2
      .on(DescribeInstanceTypeOfferingsCommand)
      .resolves(fixture('describe-instance-type-offerings'));
    ec2.on(DescribeSpotPriceHistoryCommand).resolves(fixture('describe-spot-price-history'));
    const [first, second] = fixture<{ pages: object[] }>('get-products').pages;
    pricing.on(GetProductsCommand).resolves(first ?? {});
    pricing.on(GetProductsCommand, { NextToken: 'page-2' }).resolves(second ?? {});
    const nodeClass = parseEC2NodeClass({
      apiVersion: 'karpenter.k8s.aws/v1',
      kind: 'EC2NodeClass',
      metadata: { name: 'default' },
      spec: {
        amiSelectorTerms: [{ alias: 'al2023@latest' }],
        instanceProfile: 'shop-nodes',
        subnetSelectorTerms: [{ tags: { 'karpenter.sh/discovery': 'shop' } }],
        securityGroupSelectorTerms: [{ tags: { 'karpenter.sh/discovery': 'shop' } }],
      },
    });
    startAs('Controller');
    const { cloudProvider } = await import('../../functions/handlers/controller/index.ts');

    // Act: what three passes ask of the provider
    const cloud = await cloudProvider();
    const asked = [];
    for (let pass = 0; pass < 3; pass++) {
      asked.push({ prices: await cloud.prices(), types: await cloud.instanceTypes(nodeClass) });
    }

    // Assess: built once, each call to EC2 and the Pricing API made once
    // Compared as identities: a diff of two catalogs is too large to print.
    const [firstPass] = asked;
    expect(firstPass?.types.length).toBeGreaterThan(0);
    expect(asked.map((a) => a.types === firstPass?.types)).toEqual([true, true, true]);
    expect(asked.map((a) => a.prices === firstPass?.prices)).toEqual([true, true, true]);
    expect(ec2.commandCalls(DescribeInstanceTypesCommand)).toHaveLength(1);
    expect(ec2.commandCalls(DescribeInstanceTypeOfferingsCommand)).toHaveLength(1);
    expect(ec2.commandCalls(DescribeSpotPriceHistoryCommand)).toHaveLength(1);
    // Two pages, once.
    expect(pricing.commandCalls(GetProductsCommand)).toHaveLength(2);
  });
});

describe('the interruption function as deployed', () => {
  it('answers an event about an instance that is none of the cluster’s at once, without EKS', async () => {
    eks.on(DescribeClusterCommand).rejects(new Error('EKS is down'));
    dynamodb.on(QueryCommand).resolves({ Items: [] });
    sqs.on(SendMessageCommand).resolves({});
    startAs('Interruption');
    const { handler } = await import('../../functions/handlers/interruption/index.ts');
    const body = readFileSync(
      new URL('./interruption/fixtures/spot-interruption.json', import.meta.url),
      'utf8',
    );
    const response = await handler(sqsEvent(body), lambdaContext('request-0'));
    expect(response.batchItemFailures).toEqual([]);
    expect(eks.calls()).toHaveLength(0);
  });
});
