/**
 * Nodesmith's HTTP API: `POST /v1/audit` for kube-apiserver's audit webhook, whose bearer token
 * the relay checks itself (the apiserver cannot sign requests), and the operator routes behind
 * IAM, so every call is SigV4-signed by a principal allowed `execute-api:Invoke`. Access logs go
 * to their own log group; the default stage is throttled so a runaway client cannot run up cost.
 */
import { RemovalPolicy, Validations } from 'aws-cdk-lib';
import { type CfnStage, HttpApi, HttpMethod } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpIamAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';

export interface ControlApiProps {
  readonly clusterName: string;
  readonly auditWebhook: IFunction;
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
  path: '$context.path',
  status: '$context.status',
  length: '$context.responseLength',
  latency: '$context.integrationLatency',
  error: '$context.integrationErrorMessage',
});

export class ControlApi extends Construct {
  readonly api: HttpApi;

  constructor(scope: Construct, id: string, props: ControlApiProps) {
    super(scope, id);
    this.api = new HttpApi(this, 'Resource', {
      apiName: `nodesmith-${props.clusterName}`,
      description: 'Nodesmith: audit webhook and operator API',
      createDefaultStage: true,
    });
    const [audit] = this.api.addRoutes({
      path: '/v1/audit',
      methods: [HttpMethod.POST],
      integration: new HttpLambdaIntegration('AuditWebhook', props.auditWebhook),
    });
    if (audit !== undefined) {
      Validations.of(audit).acknowledge({
        id: 'AwsSolutions-APIG4',
        reason:
          'kube-apiserver cannot sign requests; the relay compares its bearer token in constant time before reading the body',
      });
    }
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
  }

  /** The URL operators and the webhook kubeconfig point at. */
  get url(): string {
    return this.api.apiEndpoint;
  }
}
