/**
 * The audit relay's composition root: the tokens from Secrets Manager, each read (and its
 * variable required) only by the entry point that checks it, the work queue from the
 * environment the stack sets, and for the admission entry point alone the cluster's wake window
 * in the state table. `webhook` serves `POST /v1/audit`; `admission` serves
 * `POST /v1/wake/{token}`; `logs` is the EKS audit log subscription's target.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SQSClient } from '@aws-sdk/client-sqs';
import { MINUTE_MS, TtlCache } from '../../adapters/cache/ttl-cache.ts';
import { functionEnvironment } from '../../adapters/lambda/function-environment.ts';
import { SqsWaker } from '../../adapters/sqs/sqs-waker.ts';
import { Variable } from '../../contract/environment.ts';
import type { WakeWindowStore } from '../../ports/state-store.ts';
import { makeAdmissionHandler } from './admission.ts';
import { makeLogsHandler, makeWebhookHandler } from './handler.ts';
import { readWakeTokens, type WakeTokens } from './path-token.ts';

const env = functionEnvironment('the audit relay');
const logger = new Logger({ serviceName: 'nodesmith-audit-relay' });
const waker = new SqsWaker(new SQSClient({}), env.required(Variable.workQueueUrl));
const secrets = new SecretsManagerClient({});
let token: Promise<string> | undefined;

async function secretText(secretArn: string): Promise<string> {
  const secret = await secrets.send(new GetSecretValueCommand({ SecretId: secretArn }));
  return secret.SecretString ?? '';
}

function auditToken(): Promise<string> {
  token ??= secretText(env.required(Variable.auditTokenSecretArn)).catch((err: unknown) => {
    token = undefined;
    throw err;
  });
  return token;
}

/** Read again every five minutes, so a rotation reaches warm containers without a deploy. */
const wakeTokens = new TtlCache<WakeTokens>(() => new Date(), 5 * MINUTE_MS);

let table: Promise<WakeWindowStore> | undefined;

/** Loaded with the first admission call: the audit entry points share the bundle and never need it. */
function wakeWindowTable(): Promise<WakeWindowStore> {
  table ??= import('./wake-window-table.ts')
    .then(({ wakeWindowTable }) => wakeWindowTable(env.required(Variable.stateTable)))
    .catch((err: unknown) => {
      table = undefined;
      throw err;
    });
  return table;
}

const wakeWindow: WakeWindowStore = {
  takeTurn: async (now, windowMs) => (await wakeWindowTable()).takeTurn(now, windowMs),
};

export const webhook = makeWebhookHandler({ token: auditToken, waker, logger });
export const admission = makeAdmissionHandler({
  tokens: () =>
    wakeTokens.getOrLoad('tokens', async () =>
      readWakeTokens(await secretText(env.required(Variable.wakeTokenSecretArn))),
    ),
  state: { wakeWindow },
  waker,
  now: Date.now,
  logger,
});
export const logs = makeLogsHandler({ waker, logger });
