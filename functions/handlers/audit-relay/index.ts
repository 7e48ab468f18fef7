/**
 * The audit relay's composition root: the bearer token from Secrets Manager (read once per
 * container), the work queue from the environment the stack sets. `webhook` serves
 * `POST /v1/audit`; `logs` is the EKS audit log subscription's target.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SQSClient } from '@aws-sdk/client-sqs';
import { functionEnvironment } from '../../adapters/lambda/function-environment.ts';
import { SqsWaker } from '../../adapters/sqs/sqs-waker.ts';
import { Variable } from '../../contract/environment.ts';
import { makeLogsHandler, makeWebhookHandler } from './handler.ts';

const env = functionEnvironment('the audit relay');
const logger = new Logger({ serviceName: 'nodesmith-audit-relay' });
const waker = new SqsWaker(new SQSClient({}), env.required(Variable.workQueueUrl));
const secrets = new SecretsManagerClient({});
let token: Promise<string> | undefined;

function auditToken(): Promise<string> {
  token ??= secrets
    .send(new GetSecretValueCommand({ SecretId: env.required(Variable.auditTokenSecretArn) }))
    .then((secret) => secret.SecretString ?? '')
    .catch((err: unknown) => {
      token = undefined;
      throw err;
    });
  return token;
}

export const webhook = makeWebhookHandler({ token: auditToken, waker, logger });
export const logs = makeLogsHandler({ waker, logger });
