/**
 * Functions of a few lines for the Lambda runtime's tests, each written as a bundle directory
 * (`index.mjs`) and defined as a template would define it; calls to the HTTP API signed as the
 * nodesmith command line signs them.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Sha256 } from '@aws-crypto/sha256-js';
import { HttpRequest } from '@smithy/protocol-http';
import { SignatureV4 } from '@smithy/signature-v4';
import type { SqsQueue } from '../../../simulator/aws/sqs/sqs-queue.ts';
import type { FunctionDefinition } from '../../../simulator/lambda/function-definition.ts';
import type { RoleCredentials } from '../../../simulator/lambda/lambda-environment.ts';

export const ROLE_KEYS: RoleCredentials = {
  accessKeyId: 'AKIASIMULATEDFIXTURE',
  secretAccessKey: 'fixture-secret',
  sessionToken: 'fixture-session',
};

/** A function whose `index.mjs` holds `code`. */
export function aFunction(
  code: string,
  overrides: Partial<FunctionDefinition> = {},
): FunctionDefinition {
  const codeDirectory = mkdtempSync(join(tmpdir(), 'lambda-fixture-'));
  writeFileSync(join(codeDirectory, 'index.mjs'), code);
  return {
    logicalId: 'Fixture',
    functionName: 'Nodesmith-shop-Fixture',
    functionArn: 'arn:aws:lambda:us-east-1:111122223333:function:Nodesmith-shop-Fixture',
    codeDirectory,
    handler: 'index.handler',
    runtime: 'nodejs22.x',
    memorySize: 256,
    timeoutSeconds: 10,
    reservedConcurrency: undefined,
    roleArn: 'arn:aws:iam::111122223333:role/Nodesmith-shop-FixtureRole',
    logGroupName: '/aws/lambda/Nodesmith-shop-Fixture',
    logFormat: 'JSON',
    environment: { CLUSTER_NAME: 'shop' },
    ...overrides,
  };
}

export interface SigningKey {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
}

/** `fetch` of the URL, SigV4-signed for `execute-api` in us-east-1 with the key given. */
export async function signedFetch(
  url: URL,
  key: SigningKey,
  init: { method?: string; body?: string } = {},
): Promise<Response> {
  const method = init.method ?? 'GET';
  const request = await new SignatureV4({
    service: 'execute-api',
    region: 'us-east-1',
    credentials: key,
    sha256: Sha256,
  }).sign(
    new HttpRequest({
      method,
      protocol: 'http:',
      hostname: url.hostname,
      port: Number(url.port),
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: { host: url.host, 'content-type': 'application/json' },
      ...(init.body === undefined ? {} : { body: init.body }),
    }),
  );
  return fetch(url, {
    method,
    headers: request.headers,
    ...(init.body === undefined ? {} : { body: init.body }),
  });
}

/** EC2's two-minute warning for a spot instance, as EventBridge delivers it. */
export const SPOT_WARNING = {
  version: '0',
  id: '7f0d2a3c-1b2e-4c5d-8e9f-0a1b2c3d4e5f',
  'detail-type': 'EC2 Spot Instance Interruption Warning',
  source: 'aws.ec2',
  account: '111122223333',
  time: '2026-11-27T09:00:00Z',
  region: 'us-east-1',
  resources: ['arn:aws:ec2:us-east-1a:instance/i-0a1b2c3d4e5f60001'],
  detail: { 'instance-id': 'i-0a1b2c3d4e5f60001', 'instance-action': 'terminate' },
};

/** How many messages the queue holds, visible or in flight. */
export function messagesIn(queue: SqsQueue): number {
  const attributes = queue.attributes();
  return (
    Number(attributes.ApproximateNumberOfMessages) +
    Number(attributes.ApproximateNumberOfMessagesNotVisible)
  );
}
