/**
 * The one endpoint of the simulated account: it routes each request by its SigV4 credential
 * scope, maps the access key to the function holding it, records every call per function and
 * IAM action, answers an authorizer's refusal with the service's error and records it, and
 * refuses what AWS refuses unread (no signature, an unknown key) and a service's failure as a
 * 500, each in the service's own protocol.
 */
import {
  DescribeInstancesCommand,
  DescribeLaunchTemplatesCommand,
  EC2Client,
} from '@aws-sdk/client-ec2';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AwsError } from '../../../simulator/aws/aws-service.ts';
import { Ec2Service } from '../../../simulator/aws/ec2/ec2-service.ts';
import {
  type AwsEndpoint,
  type AwsEndpointOptions,
  callCounts,
  callCountsByFunction,
  startAwsEndpoint,
} from '../../../simulator/aws/endpoint.ts';
import { SimulatedEc2 } from '../../../simulator/cloud/simulated-ec2.ts';
import { SimulatedClock } from '../../../simulator/simulated-clock.ts';
import { T0 } from '../../contracts/state-fixtures.ts';

const CONTROLLER = 'AKIACONTROLLER000001';
const RELAY = 'AKIARELAY00000000001';

function ec2Client(endpoint: AwsEndpoint, accessKeyId: string): EC2Client {
  return new EC2Client({
    endpoint: endpoint.url,
    region: 'us-east-1',
    credentials: { accessKeyId, secretAccessKey: 'simulated' },
    maxAttempts: 1,
  });
}

describe('the simulated AWS endpoint', () => {
  let endpoint: AwsEndpoint;
  const ec2 = new SimulatedEc2({
    clock: new SimulatedClock(T0),
    region: 'us-east-1',
    zones: ['us-east-1a'],
    seed: 1,
  });

  async function start(options: Partial<AwsEndpointOptions> = {}): Promise<AwsEndpoint> {
    endpoint = await startAwsEndpoint({
      services: [new Ec2Service({ ec2, clusterName: 'shop' })],
      credentials: {
        [CONTROLLER]: {
          functionName: 'controller',
          roleArn: 'arn:aws:iam::111122223333:role/controller',
        },
        [RELAY]: { functionName: 'relay', roleArn: 'arn:aws:iam::111122223333:role/relay' },
      },
      ...options,
    });
    return endpoint;
  }

  afterEach(async () => {
    vi.useRealTimers();
    await endpoint.close();
  });

  it('records every call per function and IAM action', async () => {
    // Prepare
    await start();

    // Act
    await ec2Client(endpoint, CONTROLLER).send(new DescribeInstancesCommand({}));
    await ec2Client(endpoint, CONTROLLER).send(new DescribeInstancesCommand({}));
    await ec2Client(endpoint, RELAY).send(new DescribeInstancesCommand({}));

    // Assess
    expect(callCounts(endpoint.calls)).toEqual({ 'ec2:DescribeInstances': 3 });
    expect(callCounts(endpoint.calls, 'controller')).toEqual({ 'ec2:DescribeInstances': 2 });
    expect(callCountsByFunction(endpoint.calls)).toEqual({
      controller: { 'ec2:DescribeInstances': 2 },
      relay: { 'ec2:DescribeInstances': 1 },
    });
    expect(endpoint.denied).toEqual([]);
  });

  it("answers the authorizer's refusal as the service does, and records the denial", async () => {
    // Prepare
    await start({
      authorizer: (caller, service, operation) =>
        caller.functionName === 'relay'
          ? new AwsError(
              'UnauthorizedOperation',
              `not ${service.actionPrefix}:${operation.name}`,
              403,
            )
          : undefined,
    });

    // Act
    const refused = ec2Client(endpoint, RELAY).send(new DescribeInstancesCommand({}));

    // Assess
    await expect(refused).rejects.toMatchObject({
      name: 'UnauthorizedOperation',
      message: 'not ec2:DescribeInstances',
      $metadata: { httpStatusCode: 403 },
    });
    expect(endpoint.denied).toEqual([{ function: 'relay', action: 'ec2:DescribeInstances' }]);
  });

  it('refuses a key it does not know as EC2 does', async () => {
    // Prepare
    await start();

    // Act
    const refused = ec2Client(endpoint, 'AKIAUNKNOWN').send(new DescribeInstancesCommand({}));

    // Assess
    await expect(refused).rejects.toMatchObject({
      name: 'AuthFailure',
      $metadata: { httpStatusCode: 401 },
    });
    expect(endpoint.calls).toEqual([]);
  });

  it('refuses an unsigned request', async () => {
    // Prepare
    await start();

    // Act
    const response = await fetch(endpoint.url, {
      method: 'POST',
      body: 'Action=DescribeInstances',
    });

    // Assess
    expect(response.status).toBe(403);
    expect(response.headers.get('x-amzn-errortype')).toBe('MissingAuthenticationTokenException');
  });

  it("answers on the callers' clock, so the SDK retries no error to correct a skew", async () => {
    // Prepare
    // A function's process: its Date runs on the simulated clock, a little past the world's now.
    vi.useFakeTimers({ toFake: ['Date'], now: T0.getTime() + 2_000 });
    await start({ now: () => T0.getTime() });
    const caller = new EC2Client({
      endpoint: endpoint.url,
      region: 'us-east-1',
      credentials: { accessKeyId: CONTROLLER, secretAccessKey: 'simulated' },
    });

    // Act
    const missing = caller.send(new DescribeLaunchTemplatesCommand({ LaunchTemplateNames: ['x'] }));
    const unsigned = await fetch(endpoint.url, {
      method: 'POST',
      body: 'Action=DescribeInstances',
    });

    // Assess
    await expect(missing).rejects.toMatchObject({
      name: 'InvalidLaunchTemplateName.NotFoundException',
      $metadata: { attempts: 1 },
    });
    expect(callCounts(endpoint.calls)).toEqual({ 'ec2:DescribeLaunchTemplates': 1 });
    expect(unsigned.headers.get('date')).toBe(T0.toUTCString());
  });

  it("answers a service's own failure with a 500 InternalError", async () => {
    // Prepare
    const failing = new Ec2Service({ ec2, clusterName: 'shop' });
    failing.invoke = () => Promise.reject(new Error('the model broke'));
    await start({ services: [failing] });

    // Act
    const failed = ec2Client(endpoint, CONTROLLER).send(new DescribeInstancesCommand({}));

    // Assess
    await expect(failed).rejects.toMatchObject({
      name: 'InternalError',
      $metadata: { httpStatusCode: 500 },
    });
  });
});
