/**
 * One cluster's Nodesmith: state tables, the queues and rules that wake it, the functions, the
 * HTTP API, their access to the cluster, and monitoring. Deployed once per cluster with
 * `cdk deploy -c clusterName=…`; nothing of it runs inside the cluster.
 */
import { CfnOutput, Duration, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import { CfnSecurityGroupIngress } from 'aws-cdk-lib/aws-ec2';
import { EventBus } from 'aws-cdk-lib/aws-events';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import {
  FilterPattern,
  LogGroup,
  type RetentionDays,
  SubscriptionFilter,
} from 'aws-cdk-lib/aws-logs';
import { LambdaDestination } from 'aws-cdk-lib/aws-logs-destinations';
import { type IQueue, Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { Variable } from '../functions/contract/environment.ts';
import { KubernetesAccess, KubernetesGroup } from './cluster-access.ts';
import type { ClusterAccess, NodesmithConfig } from './config.ts';
import { ControlApi } from './control-api.ts';
import { Monitoring } from './monitoring.ts';
import {
  CONTROLLER_TIMEOUT,
  INTERRUPTION_RETRY,
  NodesmithFunctions,
  roleOf,
} from './nodesmith-functions.ts';
import { WakeQueues } from './queues.ts';
import { StateTables } from './state-tables.ts';
import { WakeRules } from './wake-rules.ts';

export interface NodesmithStackProps extends StackProps {
  readonly config: NodesmithConfig;
}

/** The audit log lines the relay reads: pods and nodes, nothing else. */
const AUDIT_LOG_FILTER = '{ ($.objectRef.resource = "pods") || ($.objectRef.resource = "nodes") }';

/** Lambda's SQS integration advises a visibility timeout of six times the function's. */
const sixTimes = (timeout: Duration) => Duration.seconds(timeout.toSeconds() * 6);

export class NodesmithStack extends Stack {
  constructor(scope: Construct, id: string, props: NodesmithStackProps) {
    super(scope, id, props);
    const { config } = props;
    const tables = new StateTables(this, 'State');
    const queues = new WakeQueues(this, 'Queues', {
      workVisibilityTimeout: sixTimes(CONTROLLER_TIMEOUT),
      interruptionVisibilityTimeout: INTERRUPTION_RETRY,
    });
    new WakeRules(this, 'Rules', { queues, tickMinutes: config.tickMinutes });
    const decisions = new EventBus(this, 'Decisions', {
      description: `Nodesmith's decisions for ${config.clusterName}`,
    });
    const functions = new NodesmithFunctions(this, 'Functions', {
      config,
      tables,
      queues,
      decisions,
    });
    kubernetesAccess(this, config, functions);
    const api = controlApi(this, config, functions);
    clusterEndpointIngress(this, config, functions);
    const auditLogFailures = auditLogSubscription(this, config, functions);
    const monitoring = new Monitoring(this, 'Monitoring', {
      ...config.monitoring,
      clusterName: config.clusterName,
      deadLetterQueues: {
        Work: queues.workDeadLetters,
        Interruption: queues.interruptionDeadLetters,
        ...(auditLogFailures === undefined ? {} : { AuditLogs: auditLogFailures }),
      },
      functions: functions.all,
    });
    outputs(this, {
      ...endpoints(api, functions),
      ControllerRoleArn: roleOf(functions.controller).roleArn,
      DecisionBusName: decisions.eventBusName,
      ...(monitoring.alarms === undefined ? {} : { AlarmTopicArn: monitoring.alarms.topicArn }),
      StateTableName: tables.state.tableName,
      ...(functions.securityGroup === undefined
        ? {}
        : { FunctionsSecurityGroupId: functions.securityGroup.securityGroupId }),
    });
  }
}

function controlApi(stack: Stack, config: NodesmithConfig, functions: NodesmithFunctions) {
  return new ControlApi(stack, 'HttpApi', {
    clusterName: config.clusterName,
    auditWebhook: functions.auditWebhook,
    wakeWebhook: functions.wakeWebhook,
    operatorApi: functions.api,
    logRetention: config.logRetentionDays as RetentionDays,
  });
}

/** Where operators and the cluster's webhooks point, and the secrets of the webhooks' tokens. */
function endpoints(api: ControlApi, functions: NodesmithFunctions): Record<string, string> {
  return {
    ApiUrl: api.url,
    WakeWebhookUrl: `${api.url}/v1/wake/`,
    WakeTokenSecretArn: functions.wakeToken.secretArn,
    ...(functions.auditToken === undefined
      ? {}
      : {
          AuditWebhookUrl: `${api.url}/v1/audit`,
          AuditTokenSecretArn: functions.auditToken.secretArn,
        }),
  };
}

/** Each function that talks to Kubernetes, in the group that holds only what it does. */
function kubernetesAccess(
  stack: Stack,
  config: NodesmithConfig,
  functions: NodesmithFunctions,
): void {
  new KubernetesAccess(stack, 'KubernetesAccess', {
    clusterName: config.clusterName,
    access: config.cluster,
    roles: {
      Controller: { role: roleOf(functions.controller), group: KubernetesGroup.controller },
      Interruption: { role: roleOf(functions.interruption), group: KubernetesGroup.interruption },
      Api: { role: roleOf(functions.api), group: KubernetesGroup.reader },
    },
  });
}

function outputs(stack: Stack, values: Readonly<Record<string, string>>): void {
  for (const [id, value] of Object.entries(values)) new CfnOutput(stack, id, { value });
}

/**
 * The functions in the VPC reach the cluster's API endpoint (443 on EKS, the endpoint's port on a
 * self-managed cluster), when the deployment names the cluster's security group; the rule goes
 * with the stack.
 */
function clusterEndpointIngress(
  stack: Stack,
  config: NodesmithConfig,
  functions: NodesmithFunctions,
): void {
  const clusterGroup = config.vpc?.clusterSecurityGroupId;
  if (clusterGroup === undefined || functions.securityGroup === undefined) return;
  const port = endpointPort(config.cluster);
  new CfnSecurityGroupIngress(stack, 'ClusterEndpointFromFunctions', {
    groupId: clusterGroup,
    sourceSecurityGroupId: functions.securityGroup.securityGroupId,
    ipProtocol: 'tcp',
    fromPort: port,
    toPort: port,
    description: 'Nodesmith functions to the Kubernetes API endpoint',
  });
}

function endpointPort(cluster: ClusterAccess): number {
  if (cluster.kind === 'eks') return 443;
  return Number(new URL(cluster.endpoint).port || 443);
}

/**
 * EKS audit logs to the relay, when the deployment names their log group. CloudWatch Logs
 * invokes the relay asynchronously; a batch the relay still fails after Lambda's retries is
 * kept in a queue of its own, alarmed, instead of being dropped. Returns that queue.
 */
function auditLogSubscription(
  stack: Stack,
  config: NodesmithConfig,
  functions: NodesmithFunctions,
): IQueue | undefined {
  const name = config.auditLogGroupName;
  if (name === undefined) return undefined;
  const relay = functions.make('AuditLogs', {
    handlerFolder: 'audit-relay',
    handlerExport: 'logs',
    description: 'Nodesmith audit relay: EKS audit log lines to a wake',
    timeout: Duration.seconds(30),
    memorySize: 256,
    environment: { [Variable.workQueueUrl]: functions.workQueueUrl },
  });
  new SubscriptionFilter(stack, 'AuditLogSubscription', {
    logGroup: LogGroup.fromLogGroupName(stack, 'EksAuditLogs', name),
    destination: new LambdaDestination(relay),
    filterPattern: FilterPattern.literal(AUDIT_LOG_FILTER),
  });
  const failures = new Queue(stack, 'AuditLogFailures', {
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    retentionPeriod: Duration.days(14),
  });
  Validations.of(failures).acknowledge({
    id: 'AwsSolutions-SQS3',
    reason: "this queue is itself where the audit log relay's failed invocations are kept",
  });
  relay.configureAsyncInvoke({
    onFailure: new SqsDestination(failures),
    retryAttempts: 2,
    maxEventAge: Duration.hours(1),
  });
  return failures;
}
