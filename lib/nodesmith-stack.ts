/**
 * One cluster's Nodesmith: state tables, the queues and rules that wake it, the functions, the
 * HTTP API, their access to the cluster, and monitoring. Deployed once per cluster with
 * `cdk deploy -c clusterName=…`; nothing of it runs inside the cluster.
 */
import { CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import { EventBus } from 'aws-cdk-lib/aws-events';
import {
  FilterPattern,
  LogGroup,
  type RetentionDays,
  SubscriptionFilter,
} from 'aws-cdk-lib/aws-logs';
import { LambdaDestination } from 'aws-cdk-lib/aws-logs-destinations';
import type { Construct } from 'constructs';
import { KubernetesAccess, KubernetesGroup } from './cluster-access.ts';
import type { NodesmithConfig } from './config.ts';
import { ControlApi } from './control-api.ts';
import { Monitoring } from './monitoring.ts';
import {
  CONTROLLER_TIMEOUT,
  INTERRUPTION_TIMEOUT,
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
      interruptionVisibilityTimeout: sixTimes(INTERRUPTION_TIMEOUT),
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
    new KubernetesAccess(this, 'KubernetesAccess', {
      clusterName: config.clusterName,
      access: config.cluster,
      roles: {
        Controller: { role: roleOf(functions.controller), group: KubernetesGroup.controller },
        Interruption: { role: roleOf(functions.interruption), group: KubernetesGroup.controller },
        Api: { role: roleOf(functions.api), group: KubernetesGroup.reader },
      },
    });
    const api = new ControlApi(this, 'HttpApi', {
      auditWebhook: functions.auditWebhook,
      operatorApi: functions.api,
      logRetention: config.logRetentionDays as RetentionDays,
    });
    auditLogSubscription(this, config, functions);
    const monitoring = new Monitoring(this, 'Monitoring', {
      clusterName: config.clusterName,
      deadLetterQueues: {
        Work: queues.workDeadLetters,
        Interruption: queues.interruptionDeadLetters,
      },
      functions: functions.all,
    });
    outputs(this, {
      ApiUrl: api.url,
      AuditWebhookUrl: `${api.url}/v1/audit`,
      AuditTokenSecretArn: functions.auditToken.secretArn,
      ControllerRoleArn: roleOf(functions.controller).roleArn,
      DecisionBusName: decisions.eventBusName,
      AlarmTopicArn: monitoring.alarms.topicArn,
      StateTableName: tables.state.tableName,
    });
  }
}

function outputs(stack: Stack, values: Readonly<Record<string, string>>): void {
  for (const [id, value] of Object.entries(values)) new CfnOutput(stack, id, { value });
}

/** EKS audit logs to the relay, when the deployment names their log group. */
function auditLogSubscription(
  stack: Stack,
  config: NodesmithConfig,
  functions: NodesmithFunctions,
): void {
  const name = config.auditLogGroupName;
  if (name === undefined) return;
  const relay = functions.make('AuditLogs', {
    handlerFolder: 'audit-relay',
    handlerExport: 'logs',
    description: 'Nodesmith audit relay: EKS audit log lines to a wake',
    timeout: Duration.seconds(30),
    memorySize: 256,
    environment: { WORK_QUEUE_URL: functions.workQueueUrl },
  });
  new SubscriptionFilter(stack, 'AuditLogSubscription', {
    logGroup: LogGroup.fromLogGroupName(stack, 'EksAuditLogs', name),
    destination: new LambdaDestination(relay),
    filterPattern: FilterPattern.literal(AUDIT_LOG_FILTER),
  });
}
