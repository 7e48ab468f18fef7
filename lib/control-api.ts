/**
 * Nodesmith's HTTP API: `POST /v1/wake/{token}` for kube-apiserver's admission calls and
 * `POST /v1/audit` for its audit webhook, whose tokens the relay checks itself (the apiserver
 * cannot sign requests), and the operator routes behind IAM, so every call is SigV4-signed by a
 * principal allowed `execute-api:Invoke`. Access logs go to their own log group; the default
 * stage is throttled so a runaway client cannot run up cost, and the wake route more tightly.
 */
import { RemovalPolicy, Validations } from 'aws-cdk-lib';
import { type CfnStage, HttpApi, HttpMethod, type HttpRoute } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpIamAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';

export interface ControlApiProps {
  readonly clusterName: string;
  /** A self-managed cluster's audit webhook; no `/v1/audit` route without it. */
  readonly auditWebhook?: IFunction;
  /** The admission wake. */
  readonly wakeWebhook: IFunction;
  /** Every other `/v1/` route: the function answers 404 and 405 itself. */
  readonly operatorApi: IFunction;
  readonly logRetention: RetentionDays;
}

/** The fields of each access log line. */
const ACCESS_LOG_FORMAT = JSON.stringify({
  requestId: '$context.requestId',
  ip: '$context.identity.sourceIp',
  caller: '$context.identity.caller',
  user: '$context.identity.user',
  time: '$context.requestTime',
  method: '$context.httpMethod',
  // The route, not the path: the wake route's path carries its token.
  route: '$context.routeKey',
  status: '$context.status',
  length: '$context.responseLength',
  latency: '$context.integrationLatency',
  error: '$context.integrationErrorMessage',
});

/** The admission wake's route, as API Gateway keys its settings. */
export const WAKE_ROUTE_KEY = 'POST /v1/wake/{token}';

/**
 * The wake route's own limits. Two calls a window do the wake's work (the wake at once and the
 * delayed one, in the window every relay container shares), so calls over the limit (answered
 * 429, which kube-apiserver ignores under `failurePolicy: Ignore`) lose nothing. The burst keeps a
 * burst of admission calls from starting more than five relay containers, each cold start holding
 * its call and the API request it admits, with room for a call that fails; the rate caps what a
 * caller holding the token can run up: 10 a second is at most 26 million requests a month
 * (docs/cost.md).
 */
// The route settings are passed to CloudFormation as they are, in its own capitalisation.
const WAKE_THROTTLING = { ThrottlingBurstLimit: 5, ThrottlingRateLimit: 10 };

export class ControlApi extends Construct {
  readonly api: HttpApi;

  constructor(scope: Construct, id: string, props: ControlApiProps) {
    super(scope, id);
    this.api = new HttpApi(this, 'Resource', {
      apiName: `nodesmith-${props.clusterName}`,
      description: 'Nodesmith: the cluster’s webhooks and the operator API',
      createDefaultStage: true,
    });
    if (props.auditWebhook !== undefined) this.#auditRoute(props.auditWebhook);
    const wake = this.#wakeRoute(props.wakeWebhook);
    this.api.addRoutes({
      path: '/v1/{proxy+}',
      methods: [HttpMethod.ANY],
      integration: new HttpLambdaIntegration('OperatorApi', props.operatorApi),
      authorizer: new HttpIamAuthorizer(),
    });
    const accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const stage = this.api.defaultStage?.node.defaultChild as CfnStage;
    stage.accessLogSettings = {
      destinationArn: accessLogs.logGroupArn,
      format: ACCESS_LOG_FORMAT,
    };
    stage.defaultRouteSettings = { throttlingBurstLimit: 100, throttlingRateLimit: 50 };
    stage.routeSettings = { [WAKE_ROUTE_KEY]: WAKE_THROTTLING };
    // A stage's route settings name a route that must already exist.
    if (wake !== undefined) this.api.defaultStage?.node.addDependency(wake);
  }

  #auditRoute(fn: IFunction): void {
    const [audit] = this.api.addRoutes({
      path: '/v1/audit',
      methods: [HttpMethod.POST],
      integration: new HttpLambdaIntegration('AuditWebhook', fn),
    });
    if (audit === undefined) return;
    Validations.of(audit).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason:
        'kube-apiserver cannot sign requests; the relay compares its bearer token in constant time before reading the body',
    });
  }

  #wakeRoute(fn: IFunction): HttpRoute | undefined {
    const [wake] = this.api.addRoutes({
      path: '/v1/wake/{token}',
      methods: [HttpMethod.POST],
      integration: new HttpLambdaIntegration('WakeWebhook', fn),
    });
    if (wake === undefined) return undefined;
    Validations.of(wake).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason:
        'kube-apiserver cannot sign admission calls; the relay compares the path token in constant time, answers allowed whatever it is sent, and can at most wake the controller',
    });
    return wake;
  }

  /** The URL operators and the webhook kubeconfig point at. */
  get url(): string {
    return this.api.apiEndpoint;
  }
}
