/**
 * What an operator watches: alarms on dead letters (a message or event Nodesmith could not
 * process), on function errors and on the share of launches EC2 refused for capacity, sent to
 * one SNS topic; and a dashboard of the controller's own metrics (pending and unschedulable
 * pods, claims in flight, nodes and cost per NodePool, decisions, capacity errors, pass
 * duration) beside dead letters.
 */
import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import {
  Alarm,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  type IMetric,
  MathExpression,
  Metric,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { type ITopic, Topic } from 'aws-cdk-lib/aws-sns';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import {
  KarpenterMetric,
  METRICS_NAMESPACE,
  NODEPOOL_DIMENSION,
  SERVICE_DIMENSION,
} from '../functions/contract/metric-names.ts';

export interface MonitoringProps {
  readonly clusterName: string;
  /** Whether the controller publishes its metrics: the capacity error rate alarm reads them. */
  readonly metrics: boolean;
  readonly alarms: boolean;
  readonly dashboard: boolean;
  readonly deadLetterQueues: Readonly<Record<string, IQueue>>;
  readonly functions: Readonly<Record<string, IFunction>>;
}

/**
 * The controller's metrics (functions/handlers/controller/handler.ts, Powertools EMF): its own,
 * and Karpenter's summed over their labels (docs/metrics.md).
 */
function controllerMetric(name: string, statistic = 'Sum', period = Duration.minutes(1)): Metric {
  return new Metric({
    namespace: METRICS_NAMESPACE,
    metricName: name,
    dimensionsMap: { [SERVICE_DIMENSION]: 'nodesmith-controller' },
    statistic,
    period,
  });
}

/**
 * Each line is a setting (docs/cost.md, "Choosing the monitoring"): alarms and their topic and
 * key, the dashboard, and the controller's metrics, which the dashboard and the capacity error
 * rate alarm read.
 */
export class Monitoring extends Construct {
  /** The alarms' topic; none when alarms are off. */
  readonly alarms?: ITopic;

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    if (props.alarms) this.alarms = this.#alarms(props);
    if (props.dashboard) this.#dashboard(props);
  }

  #alarms(props: MonitoringProps): ITopic {
    const topic = alarmTopic(this, props.clusterName);
    const notify = new SnsAction(topic);
    for (const [name, queue] of Object.entries(props.deadLetterQueues)) {
      this.#alarm(
        `${name}DeadLetters`,
        queue.metricApproximateNumberOfMessagesVisible(),
        0,
        notify,
      );
    }
    for (const [name, fn] of Object.entries(props.functions)) {
      this.#alarm(`${name}Errors`, fn.metricErrors({ period: Duration.minutes(5) }), 0, notify);
    }
    if (props.metrics) this.#alarm('CapacityErrorRate', capacityErrorRate(), 0.5, notify);
    return topic;
  }

  #alarm(id: string, metric: IMetric, above: number, notify: SnsAction): void {
    const alarm = new Alarm(this, id, {
      metric,
      threshold: above,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 3,
      datapointsToAlarm: 2,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    alarm.addAlarmAction(notify);
  }

  #dashboard(props: MonitoringProps): void {
    new Dashboard(this, 'Dashboard', {
      dashboardName: `nodesmith-${props.clusterName}`,
      widgets: dashboardRows(props),
    });
  }
}

const CLOUDWATCH = new ServicePrincipal('cloudwatch.amazonaws.com');

/**
 * The topic alarms publish to. CloudWatch cannot use the AWS-managed `alias/aws/sns` key, whose
 * policy no one may change, so the topic has a key of its own that lets CloudWatch encrypt with
 * it (AWS's example key policy for alarms to an encrypted topic), and a topic policy that lets
 * CloudWatch publish for this account's alarms, beside the Deny of unencrypted transport.
 */
function alarmTopic(scope: Construct, clusterName: string): ITopic {
  const key = new Key(scope, 'AlarmsKey', {
    description: `Encrypts Nodesmith's alarm notifications for ${clusterName}`,
    enableKeyRotation: true,
    // The key holds nothing at rest: notifications are encrypted only while SNS delivers them.
    removalPolicy: RemovalPolicy.DESTROY,
  });
  key.addToResourcePolicy(
    new PolicyStatement({
      sid: 'CloudWatchAlarmsEncryptNotifications',
      principals: [CLOUDWATCH],
      actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
      resources: ['*'],
    }),
  );
  const topic = new Topic(scope, 'Alarms', {
    displayName: `Nodesmith alarms for ${clusterName}`,
    enforceSSL: true,
    masterKey: key,
  });
  const stack = Stack.of(scope);
  topic.addToResourcePolicy(
    new PolicyStatement({
      sid: 'CloudWatchAlarmsPublish',
      principals: [CLOUDWATCH],
      actions: ['sns:Publish'],
      resources: [topic.topicArn],
      conditions: {
        StringEquals: { 'aws:SourceAccount': stack.account },
        ArnLike: {
          'aws:SourceArn': `arn:${stack.partition}:cloudwatch:${stack.region}:${stack.account}:alarm:*`,
        },
      },
    }),
  );
  return topic;
}

const graph = (title: string, left: IMetric[]) =>
  new GraphWidget({ title, left, width: 12, height: 6 });

/** Claims made, disrupted and ended, and voluntary commands, summed over Karpenter's labels. */
const DECISIONS = [
  KarpenterMetric.nodeClaimsCreated,
  KarpenterMetric.nodeClaimsDisrupted,
  KarpenterMetric.nodeClaimsTerminated,
  KarpenterMetric.disruptionDecisions,
];

/** The dashboard: pods and claims, nodes and cost per pool, decisions, limits, dead letters. */
function dashboardRows(props: MonitoringProps): GraphWidget[][] {
  return [
    [
      graph('Pods waiting', [
        controllerMetric('ProvisionablePods', 'Maximum'),
        controllerMetric('UnschedulablePods', 'Maximum'),
      ]),
      graph('Node claims', [
        controllerMetric(KarpenterMetric.nodeClaimsCreated),
        controllerMetric('NodeClaimsInFlight', 'Maximum'),
        controllerMetric('LaunchFailures'),
      ]),
    ],
    [
      graph('Nodes per NodePool', [perPool('Nodes')]),
      graph('Cost per hour per NodePool (USD)', [perPool('CostPerHour')]),
    ],
    [
      graph(
        'Decisions',
        DECISIONS.map((name) => controllerMetric(name)),
      ),
      graph('Pass duration (ms)', [
        controllerMetric('PassDuration', 'p50'),
        controllerMetric('PassDuration', 'p99'),
      ]),
    ],
    [
      graph('Limits', [
        controllerMetric('LimitsReached'),
        controllerMetric('PodsRefusedByLimits', 'Maximum'),
      ]),
      graph(
        'Dead letters',
        Object.values(props.deadLetterQueues).map((q) =>
          q.metricApproximateNumberOfMessagesVisible(),
        ),
      ),
    ],
  ];
}

const FIVE_MINUTES = Duration.minutes(5);

/** One line per NodePool, whichever pools exist: the controller tags them with `nodepool`. */
function perPool(metricName: string): IMetric {
  const schema = [METRICS_NAMESPACE, NODEPOOL_DIMENSION, SERVICE_DIMENSION].join(',');
  return new MathExpression({
    expression: `SEARCH('{${schema}} MetricName="${metricName}"', 'Maximum', 60)`,
    usingMetrics: {},
    label: '',
    period: Duration.minutes(1),
  });
}

/**
 * Launches refused, as a share of the claims made, over five minutes: every claim made is
 * launched or refused (`karpenter_nodeclaims_created_total` counts both).
 */
function capacityErrorRate(): IMetric {
  return new MathExpression({
    expression: 'IF(created > 0, failed / created, 0)',
    usingMetrics: {
      created: controllerMetric(KarpenterMetric.nodeClaimsCreated, 'Sum', FIVE_MINUTES),
      failed: controllerMetric('LaunchFailures', 'Sum', FIVE_MINUTES),
    },
    period: FIVE_MINUTES,
    label: 'capacity error rate',
  });
}
