/**
 * The query protocols read and written from the SDK's own schemas: what the SDK serializes is
 * decoded into the very input it was given (nested lists and structures, EC2's `ec2QueryName`s
 * and flattened lists, IAM's `member` lists, empty lists, numbers, booleans), and what the
 * service encodes is what the SDK's deserializer reads back (EC2's `item` lists, IAM's nested
 * `Result`, timestamps), errors included.
 */
import {
  CreateFleet$,
  CreateFleetCommand,
  type CreateFleetCommandInput,
  DescribeInstances$,
  DescribeInstancesCommand,
  type DescribeInstancesCommandOutput,
  EC2Client,
} from '@aws-sdk/client-ec2';
import {
  CreateInstanceProfile$,
  CreateInstanceProfileCommand,
  GetInstanceProfile$,
  GetInstanceProfileCommand,
  type GetInstanceProfileCommandOutput,
  IAMClient,
} from '@aws-sdk/client-iam';
import { afterEach, describe, expect, it } from 'vitest';
import {
  AwsError,
  type AwsHttpRequest,
  type AwsOperation,
  type AwsService,
} from '../../../simulator/aws/aws-service.ts';
import { type AwsEndpoint, startAwsEndpoint } from '../../../simulator/aws/endpoint.ts';
import { type OperationTable, QueryProtocol } from '../../../simulator/aws/query/query-protocol.ts';

const KEY = 'AKIAQUERYTEST0000001';

/** Records what it decodes and answers each operation with the output it is given. */
class EchoService implements AwsService {
  readonly decoded: AwsOperation[] = [];
  readonly #protocol: QueryProtocol;

  constructor(
    readonly signingName: string,
    operations: OperationTable,
    ec2: boolean,
    readonly outputs: Record<string, unknown>,
  ) {
    this.#protocol = new QueryProtocol({ operations, xmlNamespace: `urn:${signingName}`, ec2 });
  }

  get actionPrefix(): string {
    return this.signingName;
  }

  decode(request: AwsHttpRequest): AwsOperation {
    const operation = this.#protocol.decode(request);
    this.decoded.push(operation);
    return operation;
  }

  async invoke(operation: AwsOperation): Promise<unknown> {
    const output = this.outputs[operation.name];
    if (output instanceof AwsError) throw output;
    return output ?? {};
  }

  encode(operation: AwsOperation, output: unknown) {
    return this.#protocol.encode(operation, output);
  }

  encodeError(_operation: AwsOperation | undefined, error: AwsError) {
    return this.#protocol.encodeError(error);
  }
}

const FLEET: CreateFleetCommandInput = {
  Type: 'instant',
  ClientToken: 'default-abcde',
  LaunchTemplateConfigs: [
    {
      LaunchTemplateSpecification: { LaunchTemplateName: 'nodesmith/shop/1', Version: '$Latest' },
      Overrides: [
        {
          InstanceType: 'm5.large',
          SubnetId: 'subnet-a',
          AvailabilityZone: 'us-east-1a',
          Priority: 1.5,
        },
        {
          InstanceType: 'c5.large',
          SubnetId: 'subnet-b',
          AvailabilityZone: 'us-east-1b',
          Priority: 2,
        },
      ],
    },
  ],
  TargetCapacitySpecification: { TotalTargetCapacity: 1, DefaultTargetCapacityType: 'spot' },
  SpotOptions: { AllocationStrategy: 'price-capacity-optimized' },
  ReplaceUnhealthyInstances: false,
  TagSpecifications: [
    {
      ResourceType: 'instance',
      Tags: [
        { Key: 'Name', Value: 'default-abcde' },
        { Key: 'team', Value: 'a&b <c>' },
      ],
    },
    { ResourceType: 'volume', Tags: [{ Key: 'Name', Value: 'default-abcde' }] },
  ],
};

const INSTANCES: Omit<DescribeInstancesCommandOutput, '$metadata'> = {
  Reservations: [
    {
      ReservationId: 'r-1',
      Instances: [
        {
          InstanceId: 'i-1',
          InstanceType: 'm5.large',
          LaunchTime: new Date('2030-01-01T00:00:00.000Z'),
          Placement: { AvailabilityZone: 'us-east-1a' },
          State: { Code: 16, Name: 'running' },
          EbsOptimized: true,
          InstanceLifecycle: 'spot',
          Tags: [
            { Key: 'karpenter.sh/nodeclaim', Value: 'default-abcde' },
            { Key: 'note', Value: 'a&b <c>' },
          ],
        },
      ],
    },
    { ReservationId: 'r-2', Instances: [{ InstanceId: 'i-2', Tags: [] }] },
  ],
  NextToken: 'Mg==',
};

const PROFILE: Omit<GetInstanceProfileCommandOutput, '$metadata'> = {
  InstanceProfile: {
    InstanceProfileName: 'shop_1',
    InstanceProfileId: 'AIPA1',
    Path: '/nodesmith/',
    Arn: 'arn:aws:iam::111122223333:instance-profile/nodesmith/shop_1',
    CreateDate: new Date('2030-01-01T00:00:00.000Z'),
    Roles: [
      {
        RoleName: 'node',
        RoleId: 'AROA1',
        Path: '/',
        Arn: 'arn:aws:iam::111122223333:role/node',
        CreateDate: new Date('2029-12-31T00:00:00.000Z'),
      },
    ],
  },
};

function clientConfig(endpoint: AwsEndpoint) {
  return {
    endpoint: endpoint.url,
    region: 'us-east-1',
    credentials: { accessKeyId: KEY, secretAccessKey: 'simulated' },
    maxAttempts: 1,
  };
}

describe('the query protocols, from the SDK schemas', () => {
  let endpoint: AwsEndpoint | undefined;
  afterEach(async () => {
    await endpoint?.close();
  });

  async function start(service: EchoService): Promise<AwsEndpoint> {
    endpoint = await startAwsEndpoint({ services: [service], credentials: { [KEY]: {} } });
    return endpoint;
  }

  it("decodes EC2's flattened lists and nested structures into the input the SDK was given", async () => {
    // Prepare
    const ec2 = new EchoService('ec2', { CreateFleet: CreateFleet$ }, true, {});
    const client = new EC2Client(clientConfig(await start(ec2)));

    // Act
    await client.send(new CreateFleetCommand(FLEET));

    // Assess
    expect(ec2.decoded).toEqual([{ name: 'CreateFleet', input: FLEET }]);
  });

  it("encodes EC2's item lists, timestamps and escaped text as the SDK reads them", async () => {
    // Prepare
    const ec2 = new EchoService('ec2', { DescribeInstances: DescribeInstances$ }, true, {
      DescribeInstances: INSTANCES,
    });
    const client = new EC2Client(clientConfig(await start(ec2)));

    // Act
    const { $metadata, ...output } = await client.send(new DescribeInstancesCommand({}));

    // Assess
    expect(output).toEqual(INSTANCES);
    expect($metadata.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("decodes IAM's member lists, an empty one included, and reads back its nested Result", async () => {
    // Prepare
    const iam = new EchoService(
      'iam',
      { CreateInstanceProfile: CreateInstanceProfile$, GetInstanceProfile: GetInstanceProfile$ },
      false,
      { GetInstanceProfile: PROFILE },
    );
    const client = new IAMClient(clientConfig(await start(iam)));
    const tagged = {
      InstanceProfileName: 'shop_1',
      Path: '/nodesmith/',
      Tags: [{ Key: 'a', Value: '1' }],
    };

    // Act
    await client.send(new CreateInstanceProfileCommand(tagged));
    await client.send(new CreateInstanceProfileCommand({ InstanceProfileName: 'bare', Tags: [] }));
    const { $metadata: _, ...output } = await client.send(
      new GetInstanceProfileCommand({ InstanceProfileName: 'shop_1' }),
    );

    // Assess
    expect(iam.decoded.map((o) => o.input)).toEqual([
      tagged,
      { InstanceProfileName: 'bare', Tags: [] },
      { InstanceProfileName: 'shop_1' },
    ]);
    expect(output).toEqual(PROFILE);
  });

  it('writes errors as each dialect does, so the SDK names the code', async () => {
    // Prepare
    const ec2 = new EchoService('ec2', { DescribeInstances: DescribeInstances$ }, true, {
      DescribeInstances: new AwsError('RequestLimitExceeded', 'Request limit exceeded.', 503),
    });
    const iam = new EchoService('iam', { GetInstanceProfile: GetInstanceProfile$ }, false, {
      GetInstanceProfile: new AwsError('NoSuchEntity', 'Instance Profile x cannot be found.', 404),
    });
    endpoint = await startAwsEndpoint({ services: [ec2, iam], credentials: { [KEY]: {} } });

    // Act
    const throttled = new EC2Client(clientConfig(endpoint)).send(new DescribeInstancesCommand({}));
    const missing = new IAMClient(clientConfig(endpoint)).send(
      new GetInstanceProfileCommand({ InstanceProfileName: 'x' }),
    );

    // Assess
    await expect(throttled).rejects.toMatchObject({
      name: 'RequestLimitExceeded',
      message: 'Request limit exceeded.',
      $metadata: { httpStatusCode: 503 },
    });
    await expect(missing).rejects.toMatchObject({
      name: 'NoSuchEntityException',
      Code: 'NoSuchEntity',
      Type: 'Sender',
      $metadata: { httpStatusCode: 404 },
    });
  });
});
