/**
 * Nodesmith's functions and what each may touch: the controller (tables, work queue, decision
 * bus, EC2 and IAM through its permissions), the interruption function and the operator API
 * (tables, work queue), the admission wake (its path token, the work queue), the audit webhook
 * relay of a self-managed cluster (its bearer token, the work queue) and, for EKS audit logs, the
 * log relay.
 * Each has its own role; only the functions that reach the cluster run in the deployment's VPC.
 */
import { Annotations, type CfnElement, Duration, Fn, Stack, Validations } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import {
  type ISecurityGroup,
  type ISubnet,
  type IVpc,
  SecurityGroup,
  Subnet,
  Vpc,
} from 'aws-cdk-lib/aws-ec2';
import type { IEventBus } from 'aws-cdk-lib/aws-events';
import { type IRole, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { type ISecret, Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { Variable } from '../functions/contract/environment.ts';
import { WAKE_WINDOW_PARTITION } from '../functions/contract/state-tables.ts';
import type { NodesmithConfig } from './config.ts';
import { grantControllerPermissions } from './controller-permissions.ts';
import { NodesmithFunction, type NodesmithFunctionProps } from './nodesmith-function.ts';
import type { WakeQueues } from './queues.ts';
import type { StateTables } from './state-tables.ts';

export interface NodesmithFunctionsProps {
  readonly config: NodesmithConfig;
  readonly tables: StateTables;
  readonly queues: WakeQueues;
  readonly decisions: IEventBus;
}

/** A pass schedules for at most a minute, then launches what it decided. */
export const CONTROLLER_TIMEOUT = Duration.minutes(3);
/**
 * A spot warning gives two minutes. The interruption function's work is a few DynamoDB writes, a
 * wake and a taint, so it is cut short early and its message comes back within seconds.
 */
export const INTERRUPTION_TIMEOUT = Duration.seconds(10);
/**
 * How long a failed interruption message stays invisible before its retry: just over the
 * function's timeout, as Lambda requires, so five receives fit well inside the two minutes.
 */
export const INTERRUPTION_RETRY = Duration.seconds(15);
/**
 * The work queue starts at most this many controller invocations (SQS's least maximum
 * concurrency): one pass holds the lease, a second may start, find it held and leave.
 */
const CONTROLLER_CONCURRENCY = 2;

export function roleOf(fn: IFunction): IRole {
  if (fn.role === undefined) throw new Error(`${fn.node.path} has no role`);
  return fn.role;
}

export class NodesmithFunctions extends Construct {
  readonly controller: IFunction;
  readonly interruption: IFunction;
  /** A self-managed cluster's audit webhook, when the deployment keeps it (`auditWebhook`). */
  readonly auditWebhook?: IFunction;
  /** The operator API: pools, classes, the dry run and the status. */
  readonly api: IFunction;
  /** The bearer token kube-apiserver's audit webhook sends, with that webhook. */
  readonly auditToken?: ISecret;
  /** The admission wake: AdmissionReviews at `POST /v1/wake/{token}`. */
  readonly wakeWebhook: IFunction;
  /** The token in the admission wake's path, current and previous: `{"token", "previousToken"}`. */
  readonly wakeToken: ISecret;
  readonly workQueueUrl: string;
  /** Every function made, by id: monitoring watches them all. */
  readonly all: Record<string, IFunction> = {};
  readonly #props: NodesmithFunctionsProps;
  #sharedNetwork: FunctionNetwork | undefined;

  constructor(scope: Construct, id: string, props: NodesmithFunctionsProps) {
    super(scope, id);
    this.#props = props;
    const { config, tables, queues } = props;
    this.workQueueUrl = queues.work.queueUrl;
    const state = {
      [Variable.clusterName]: config.clusterName,
      [Variable.stateTable]: tables.state.tableName,
      [Variable.claimsTable]: tables.nodeClaims.tableName,
      [Variable.workQueueUrl]: queues.work.queueUrl,
      ...(config.limits === undefined
        ? {}
        : { [Variable.clusterLimits]: JSON.stringify(config.limits) }),
    };
    this.controller = this.#controller(state);
    this.interruption = this.make(
      'Interruption',
      {
        handlerFolder: 'interruption',
        description: 'Nodesmith interruption: spot warnings, state changes, scheduled maintenance',
        timeout: INTERRUPTION_TIMEOUT,
        environment: { ...state, ...secretEnvironment(config) },
      },
      true,
    );
    this.interruption.addEventSource(
      new SqsEventSource(queues.interruption, { batchSize: 10, reportBatchItemFailures: true }),
    );
    if (config.auditWebhook) {
      this.auditToken = auditTokenSecret(this, config.clusterName);
      this.auditWebhook = this.#auditWebhook(this.auditToken);
    }
    this.wakeToken = wakeTokenSecret(this, config.clusterName);
    this.wakeWebhook = this.#wakeWebhook();
    this.api = this.make(
      'Api',
      {
        handlerFolder: 'api',
        description: 'Nodesmith API: NodePools, EC2NodeClasses, NodeOverlays, dry run and status',
        timeout: Duration.seconds(29),
        memorySize: 1024,
        environment: { ...state, ...secretEnvironment(config) },
      },
      true,
    );
    this.#grantState([this.controller, this.interruption, this.api]);
  }

  #controller(state: Record<string, string>): IFunction {
    const { config, queues, decisions } = this.#props;
    const controller = this.make(
      'Controller',
      {
        handlerFolder: 'controller',
        description: 'Nodesmith controller: one pass over the cluster',
        timeout: CONTROLLER_TIMEOUT,
        memorySize: 2048,
        ...(config.controllerReservedConcurrency === undefined
          ? {}
          : { reservedConcurrentExecutions: config.controllerReservedConcurrency }),
        environment: {
          ...state,
          [Variable.eventBusName]: decisions.eventBusName,
          ...clusterEnvironment(config),
          ...(config.adoptKarpenterNodes ? { [Variable.adoptKarpenterNodes]: 'true' } : {}),
        },
      },
      true,
    );
    controller.addEventSource(
      new SqsEventSource(queues.work, {
        batchSize: 10,
        reportBatchItemFailures: true,
        maxConcurrency: CONTROLLER_CONCURRENCY,
      }),
    );
    decisions.grantPutEventsTo(controller);
    grantControllerPermissions(roleOf(controller), Stack.of(this), config);
    return controller;
  }

  #auditWebhook(token: ISecret): IFunction {
    const webhook = this.make('AuditWebhook', {
      handlerFolder: 'audit-relay',
      handlerExport: 'webhook',
      description: 'Nodesmith audit relay: kube-apiserver audit webhook to a wake',
      timeout: Duration.seconds(10),
      memorySize: 256,
      environment: {
        [Variable.workQueueUrl]: this.#props.queues.work.queueUrl,
        [Variable.auditTokenSecretArn]: token.secretArn,
      },
    });
    token.grantRead(webhook);
    Validations.of(token).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        "the token lives in kube-apiserver's audit webhook kubeconfig as well; rotating it is a change to the control plane's flags, made by the operator",
    });
    return webhook;
  }

  /**
   * The admission wake: it answers within the webhook configuration's two-second timeout, so a
   * longer run would only be an invocation kube-apiserver no longer waits for. Its containers
   * share one wake window, an item of the state table, and may write that item and no other.
   */
  #wakeWebhook(): IFunction {
    const { state } = this.#props.tables;
    const webhook = this.make('WakeWebhook', {
      handlerFolder: 'audit-relay',
      handlerExport: 'admission',
      description: 'Nodesmith admission wake: pod and node admission calls to a wake',
      timeout: Duration.seconds(3),
      memorySize: 256,
      environment: {
        [Variable.workQueueUrl]: this.#props.queues.work.queueUrl,
        [Variable.wakeTokenSecretArn]: this.wakeToken.secretArn,
        [Variable.stateTable]: state.tableName,
      },
    });
    roleOf(webhook).addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['dynamodb:UpdateItem'],
        resources: [state.tableArn],
        conditions: {
          'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': [WAKE_WINDOW_PARTITION] },
        },
      }),
    );
    this.wakeToken.grantRead(webhook);
    Validations.of(this.wakeToken).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'the token is part of the URL in the cluster’s ValidatingWebhookConfiguration; it is rotated by the operator with both values in the secret (docs/audit-relay.md)',
    });
    return webhook;
  }

  /** Tables for the functions that keep state; the claims index is found by instance id. */
  #grantState(functions: readonly IFunction[]): void {
    const { nodeClaims, state } = this.#props.tables;
    const indexes = [nodeClaims, state].map((table: ITableV2) => {
      const logicalId = Stack.of(this).getLogicalId(table.node.defaultChild as CfnElement);
      return `<${logicalId}.Arn>/index/*`;
    });
    for (const fn of functions) {
      nodeClaims.grantReadWriteData(fn);
      state.grantReadWriteData(fn);
      for (const index of indexes) {
        Validations.of(roleOf(fn)).acknowledge({
          id: `AwsSolutions-IAM5[Resource::${index}]`,
          reason: "claims are found by instance id through the table's index",
        });
      }
    }
  }

  /**
   * The deployment's subnets, by id, and one security group for every function in them, made
   * on first use. No availability zones are looked up: the subnets name them, and a lookup
   * would need AWS credentials at synth time.
   */
  #network(): FunctionNetwork | undefined {
    const vpc = this.#props.config.vpc;
    if (vpc === undefined) return undefined;
    this.#sharedNetwork ??= functionNetwork(this, vpc);
    return this.#sharedNetwork;
  }

  /** The security group of the functions in the VPC; none outside one. */
  get securityGroup(): ISecurityGroup | undefined {
    return this.#network()?.securityGroup;
  }

  #placement() {
    const network = this.#network();
    if (network === undefined) return {};
    return {
      vpc: network.vpc,
      vpcSubnets: { subnets: network.subnets },
      securityGroups: [network.securityGroup],
    };
  }

  /**
   * A function with its own role, allowed to wake the controller. Those that reach the
   * Kubernetes API run in the deployment's subnets when it names them (a private endpoint).
   */
  make(
    id: string,
    props: Omit<NodesmithFunctionProps, 'logRetention'>,
    reachesCluster = false,
  ): IFunction {
    const { config, queues } = this.#props;
    const fn = new NodesmithFunction(Stack.of(this), id, {
      ...props,
      // Powertools' own switch: a function still runs its metrics code, and publishes nothing.
      environment: {
        ...props.environment,
        ...(config.monitoring.metrics ? {} : { POWERTOOLS_METRICS_DISABLED: 'true' }),
      },
      ...(reachesCluster ? this.#placement() : {}),
      logRetention: config.logRetentionDays as RetentionDays,
    }).function;
    queues.work.grantSendMessages(fn);
    this.all[id] = fn;
    return fn;
  }
}

function auditTokenSecret(scope: Construct, clusterName: string): ISecret {
  return new Secret(scope, 'AuditToken', {
    description: `Bearer token of kube-apiserver's audit webhook for Nodesmith (${clusterName})`,
    generateSecretString: { excludePunctuation: true, passwordLength: 48 },
  });
}

/** `{"token": …}`: 48 letters and digits, safe in a URL path (docs/audit-relay.md). */
function wakeTokenSecret(scope: Construct, clusterName: string): ISecret {
  return new Secret(scope, 'WakeToken', {
    description: `Token in the path of the admission wake's URL for Nodesmith (${clusterName})`,
    generateSecretString: {
      secretStringTemplate: '{}',
      generateStringKey: 'token',
      excludePunctuation: true,
      passwordLength: 48,
    },
  });
}

interface FunctionNetwork {
  readonly vpc: IVpc;
  readonly subnets: ISubnet[];
  readonly securityGroup: ISecurityGroup;
}

function functionNetwork(
  scope: Construct,
  vpc: NonNullable<NodesmithConfig['vpc']>,
): FunctionNetwork {
  const subnets = vpc.subnetIds.map((subnetId) => {
    const subnet = Subnet.fromSubnetId(scope, `Subnet${subnetId}`, subnetId);
    Annotations.of(subnet).acknowledgeWarning(
      '@aws-cdk/aws-ec2:noSubnetRouteTableId',
      'the functions only attach to the subnets; nothing reads their route tables',
    );
    return subnet;
  });
  // Zones resolved by CloudFormation, not looked up now: the subnets are named, not selected.
  const imported = Vpc.fromVpcAttributes(scope, 'Vpc', {
    vpcId: vpc.vpcId,
    availabilityZones: Fn.getAzs(),
  });
  Annotations.of(imported).acknowledgeWarning(
    '@aws-cdk/aws-ec2:vpcAttributeIsListTokenavailabilityZones',
    'the functions take their subnets by id; nothing selects subnets from the VPC by zone',
  );
  const securityGroup = new SecurityGroup(scope, 'SecurityGroup', {
    vpc: imported,
    description: 'Nodesmith functions: out to the cluster endpoint and AWS APIs, nothing in',
    allowAllOutbound: true,
  });
  return { vpc: imported, subnets, securityGroup };
}

/** How the controller reaches a self-managed cluster; EKS is described at run time. */
function clusterEnvironment(config: NodesmithConfig): Record<string, string> {
  const cluster = config.cluster;
  if (cluster.kind === 'eks') return {};
  return {
    ...secretEnvironment(config),
    [Variable.clusterEndpoint]: cluster.endpoint,
    ...(cluster.certificateAuthority === undefined
      ? {}
      : { [Variable.clusterCa]: cluster.certificateAuthority }),
    [Variable.kubernetesVersion]: cluster.kubernetesVersion,
    ...(cluster.serviceCidr === undefined ? {} : { [Variable.serviceCidr]: cluster.serviceCidr }),
  };
}

function secretEnvironment(config: NodesmithConfig): Record<string, string> {
  const cluster = config.cluster;
  return cluster.kind === 'eks' ? {} : { [Variable.clusterSecretArn]: cluster.kubeconfigSecretArn };
}
