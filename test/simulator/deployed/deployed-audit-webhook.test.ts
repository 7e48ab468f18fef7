/**
 * kube-apiserver's audit webhook backend pointed at the deployed stack: each batch POSTed through
 * the template's HTTP API to `POST /v1/audit` with the bearer token of the stack's AuditToken
 * secret, the relay's webhook handler behind the route. A batch with a wrong token is answered as
 * the relay answers it, wakes nothing and counts as a failed delivery and a refusal; a transient
 * failure counts as failed only, since kube-apiserver retries it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { makeWebhookHandler } from '../../../functions/handlers/audit-relay/handler.ts';
import type { JsonObject } from '../../../simulator/api-server/json.ts';
import { SimulatedSecrets } from '../../../simulator/aws/secrets-manager/simulated-secrets.ts';
import { DeployedAuditWebhook } from '../../../simulator/deployed/deployed-audit-webhook.ts';
import { DeployedHttpApi } from '../../../simulator/deployed/deployed-http-api.ts';
import type { CloudFormationTemplate } from '../../../simulator/iam/template-policies.ts';
import { lambdaContext } from '../../../simulator/run/lambda-events.ts';
import { fixture, RecordingWaker } from '../../handlers/audit-relay/support.ts';

const API_URL = 'https://a1b2c3d4e5.execute-api.us-east-1.amazonaws.com';
const NOW = Date.parse('2026-01-05T09:00:00.000Z');

/** The audit route of the stack's HTTP API, its function and the outputs the operator reads. */
function template(secretArn: string): CloudFormationTemplate {
  return {
    Resources: {
      AuditRoute: {
        Type: 'AWS::ApiGatewayV2::Route',
        Properties: {
          RouteKey: 'POST /v1/audit',
          AuthorizationType: 'NONE',
          Target: { 'Fn::Join': ['', ['integrations/', { Ref: 'AuditIntegration' }]] },
        },
      },
      AuditIntegration: {
        Type: 'AWS::ApiGatewayV2::Integration',
        Properties: {
          IntegrationUri: { 'Fn::GetAtt': ['AuditWebhook', 'Arn'] },
          PayloadFormatVersion: '2.0',
        },
      },
    },
    Outputs: {
      ApiUrl: { Value: API_URL },
      AuditWebhookUrl: { Value: `${API_URL}/v1/audit` },
      AuditTokenSecretArn: { Value: secretArn },
    },
  } as CloudFormationTemplate;
}

let api: DeployedHttpApi | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

/** The stack's API with the relay's webhook behind its audit route, checking the secret's token. */
async function deployed(options: { failing?: boolean } = {}) {
  const secrets = new SimulatedSecrets({
    region: 'us-east-1',
    account: '111122223333',
    now: () => NOW,
  });
  const secretArn = secrets.put('AuditToken', 'the-token-the-stack-generated');
  const waker = new RecordingWaker();
  const relay = makeWebhookHandler({ token: async () => 'the-token-the-stack-generated', waker });
  const received: JsonObject[] = [];
  const stack = { template: template(secretArn), resolve: String, secrets };
  api = await DeployedHttpApi.start({
    ...stack,
    accountId: '111122223333',
    invoke: async (functionLogicalId, event) => {
      received.push({ functionLogicalId, ...(event as JsonObject) });
      if (options.failing) throw new Error('the function timed out');
      return relay(event as never, lambdaContext('audit-webhook'));
    },
    now: () => NOW,
  });
  return { api, stack, waker, received };
}

const BATCH = JSON.parse(fixture('pod-create.json')) as JsonObject;

describe("the audit webhook backend pointed at the deployed stack's HTTP API", () => {
  it('posts a batch with the bearer token of the AuditToken secret, and the relay wakes the controller', async () => {
    // Prepare
    const { api, stack, waker, received } = await deployed();
    const webhook = DeployedAuditWebhook.of(api, stack);
    // Act
    const status = await webhook?.post(BATCH);
    // Assess
    expect(status).toBe(200);
    expect(received).toMatchObject([
      {
        functionLogicalId: 'AuditWebhook',
        routeKey: 'POST /v1/audit',
        headers: { authorization: 'Bearer the-token-the-stack-generated' },
      },
    ]);
    expect(waker.wakes).toEqual([{ source: 'audit', reason: '1 pod created' }]);
    expect(webhook?.failedDeliveries).toBe(0);
    expect(webhook?.refused).toEqual([]);
  });

  it('has a batch with a wrong token answered 401 by the relay, waking nothing, counted failed and refused', async () => {
    // Prepare
    const { api, waker } = await deployed();
    const webhook = new DeployedAuditWebhook(api, {
      server: `${API_URL}/v1/audit`,
      token: 'a-token-the-stack-never-made',
    });
    // Act
    const status = await webhook.post(BATCH);
    // Assess
    expect(status).toBe(401);
    expect(waker.wakes).toEqual([]);
    expect(webhook.failedDeliveries).toBe(1);
    expect(webhook.refused).toEqual([
      "the audit webhook's batch was answered 401: missing or wrong bearer token",
    ]);
  });

  it('counts a batch the function failed as failed, not refused: kube-apiserver retries it', async () => {
    // Prepare
    const { api, stack, waker } = await deployed({ failing: true });
    const webhook = DeployedAuditWebhook.of(api, stack);
    // Act
    const status = await webhook?.post(BATCH);
    // Assess
    expect(status).toBe(500);
    expect(waker.wakes).toEqual([]);
    expect(webhook?.failedDeliveries).toBe(1);
    expect(webhook?.refused).toEqual([]);
  });

  it('is absent for a stack without the audit webhook, as on EKS', async () => {
    // Prepare
    const { api, stack } = await deployed();
    const {
      AuditWebhookUrl: _url,
      AuditTokenSecretArn: _arn,
      ...outputs
    } = stack.template.Outputs ?? {};
    // Act
    const webhook = DeployedAuditWebhook.of(api, {
      ...stack,
      template: { ...stack.template, Outputs: outputs },
    });
    // Assess
    expect(webhook).toBeUndefined();
  });
});
