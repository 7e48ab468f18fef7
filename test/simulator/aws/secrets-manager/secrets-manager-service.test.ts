/**
 * The simulated Secrets Manager through the unchanged SDK client, and through the audit relay's
 * composition root, which reads its bearer token from it and wakes the controller over the
 * simulated SQS, both reached by the SDK's standard endpoint setting.
 */
import {
  GetSecretValueCommand,
  ResourceNotFoundException,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { secretsManagerService } from '../../../../simulator/aws/secrets-manager/secrets-manager-service.ts';
import { SimulatedSecrets } from '../../../../simulator/aws/secrets-manager/simulated-secrets.ts';
import { SqsQueues } from '../../../../simulator/aws/sqs/sqs-queues.ts';
import { sqsService } from '../../../../simulator/aws/sqs/sqs-service.ts';
import { secretArn } from '../../../../simulator/iam/physical-resources.ts';
import { simulatedAccount } from '../../../../simulator/iam/simulated-account.ts';
import { context, fixture, post, TOKEN } from '../../../handlers/audit-relay/support.ts';
import {
  type AwsTestEndpoint,
  startAwsTestEndpoint,
  TEST_CREDENTIALS,
  TEST_REGION,
} from '../../../support/aws-test-endpoint.ts';

const ACCOUNT = '111122223333';
const now = () => Date.parse('2026-11-27T08:00:00Z');
let url = '';
let secrets: SimulatedSecrets;
let queues: SqsQueues;
let endpoint: AwsTestEndpoint;
let client: SecretsManagerClient;

beforeAll(async () => {
  secrets = new SimulatedSecrets({ region: TEST_REGION, account: ACCOUNT, now });
  queues = new SqsQueues({ endpointUrl: () => url, region: TEST_REGION, account: ACCOUNT, now });
  endpoint = await startAwsTestEndpoint([secretsManagerService(secrets), sqsService(queues)]);
  url = endpoint.url;
  client = new SecretsManagerClient(endpoint.clientConfig);
});

afterAll(async () => {
  client.destroy();
  vi.unstubAllEnvs();
  await endpoint.close();
});

describe('the simulated Secrets Manager', () => {
  it('answers GetSecretValue by name, ARN and partial ARN with the text put', async () => {
    // Prepare
    const arn = secrets.put('nodesmith/shop/audit-token', 'by-name-and-arn');
    const ids = ['nodesmith/shop/audit-token', arn, arn.slice(0, -7)];

    // Act
    const outputs = await Promise.all(
      ids.map((SecretId) => client.send(new GetSecretValueCommand({ SecretId }))),
    );

    // Assess
    expect(arn).toMatch(
      /^arn:aws:secretsmanager:us-east-1:111122223333:secret:nodesmith\/shop\/audit-token-[\w-]{6}$/,
    );
    for (const output of outputs) {
      expect(output).toMatchObject({
        ARN: arn,
        Name: 'nodesmith/shop/audit-token',
        SecretString: 'by-name-and-arn',
        VersionStages: ['AWSCURRENT'],
        CreatedDate: new Date(now()),
      });
    }
  });

  it("gives a secret the ARN the template's Ref gives it, and tells the authorizer that ARN", () => {
    // Prepare
    const name = 'Nodesmith-AuditToken';

    // Act
    const arn = secrets.put(name, 'token');

    // Assess
    expect(arn).toBe(
      secretArn(name, simulatedAccount({ region: TEST_REGION, accountId: ACCOUNT })),
    );
    expect([secrets.arnOf(name), secrets.arnOf(arn), secrets.arnOf('absent')]).toEqual([
      arn,
      arn,
      undefined,
    ]);
  });

  it('answers ResourceNotFoundException for a secret that does not exist', async () => {
    // Prepare
    const command = new GetSecretValueCommand({ SecretId: 'nodesmith/absent' });

    // Act
    const reading = client.send(command);

    // Assess
    await expect(reading).rejects.toBeInstanceOf(ResourceNotFoundException);
  });

  it("gives the audit relay its bearer token, and the relay's wake reaches the work queue", async () => {
    // Prepare
    const work = queues.create('nodesmith-work');
    vi.stubEnv('AWS_ENDPOINT_URL', url);
    vi.stubEnv('AWS_REGION', TEST_REGION);
    vi.stubEnv('AWS_ACCESS_KEY_ID', TEST_CREDENTIALS.accessKeyId);
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', TEST_CREDENTIALS.secretAccessKey);
    vi.stubEnv('AUDIT_TOKEN_SECRET_ARN', secrets.put('nodesmith/shop/relay-token', TOKEN));
    vi.stubEnv('WORK_QUEUE_URL', work.settings.url);
    vi.resetModules();
    const { webhook } = await import('../../../../functions/handlers/audit-relay/index.ts');

    // Act
    const response = await webhook(post(fixture('pod-unschedulable.json')), context());

    // Assess
    expect(response.statusCode).toBe(200);
    expect(work.receive(10).map((m) => JSON.parse(m.body))).toEqual([
      { source: 'audit', reason: '1 pod unschedulable' },
    ]);
  });
});
