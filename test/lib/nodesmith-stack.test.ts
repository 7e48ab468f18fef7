/**
 * The synthesized template, checked the way a security reviewer reads it: tables equal to what
 * the DynamoDB adapter creates, dead-letter queues everywhere, least-privilege IAM with the
 * cluster's tag conditions, the API's authorization, and each function built the same way.
 */
import { readFileSync } from 'node:fs';
import { Match } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { TTL_ATTRIBUTE, tableDefinitions } from '../../functions/adapters/dynamodb/tables.ts';
import { Variable } from '../../functions/contract/environment.ts';
import { INSTANCE_ID_INDEX, WAKE_WINDOW_PARTITION } from '../../functions/contract/state-tables.ts';
import { apiRoutes } from '../../functions/handlers/api/routes.ts';
import { startingLimits } from '../../functions/manifests/nodesmith/starting-limits.ts';
import { makeMemoryStateStore } from '../../simulator/memory/memory-state-store.ts';
import {
  type BuiltStack,
  buildStack,
  EKS_CONTEXT,
  NODE_ROLE,
  SELF_MANAGED_CONTEXT,
} from './stack-fixture.ts';

type Resource = { Type: string; Properties: Record<string, any>; DeletionPolicy?: string };

let eks: BuiltStack;
let selfManaged: BuiltStack;
let adopting: BuiltStack;

beforeAll(() => {
  eks = buildStack(EKS_CONTEXT);
  adopting = buildStack({ ...EKS_CONTEXT, adoptKarpenterNodes: true });
  selfManaged = buildStack(SELF_MANAGED_CONTEXT, { region: 'eu-west-1' });
}, 60_000);

function resources(built: BuiltStack, type: string): [string, Resource][] {
  return Object.entries(built.template.findResources(type)) as [string, Resource][];
}

/** Every IAM statement of the role whose logical id starts with `rolePrefix`. */
function statementsOf(built: BuiltStack, rolePrefix: string): any[] {
  const roles = resources(built, 'AWS::IAM::Role').filter(([id]) => id.startsWith(rolePrefix));
  expect(roles, rolePrefix).toHaveLength(1);
  const [roleId] = roles[0] ?? [''];
  return resources(built, 'AWS::IAM::Policy')
    .filter(([, p]) => p.Properties.Roles.some((r: any) => r.Ref === roleId))
    .flatMap(([, p]) => p.Properties.PolicyDocument.Statement);
}

interface InstanceRequest {
  readonly action: string;
  readonly resourceTags: Readonly<Record<string, string>>;
  readonly requestTags: Readonly<Record<string, string>>;
}

/** Glob matching as IAM's StringLike does it: `*` and `?`. */
function like(pattern: string, value: string): boolean {
  const source = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${source}$`).test(value);
}

/** The value of a condition key for a request on one instance, as IAM would see it. */
function keyValues(key: string, request: InstanceRequest): string[] {
  const [kind, tag = ''] = key.split(/\/(.*)/s);
  if (kind === 'aws:ResourceTag')
    return tag in request.resourceTags ? [request.resourceTags[tag] ?? ''] : [];
  if (kind === 'aws:RequestTag')
    return tag in request.requestTags ? [request.requestTags[tag] ?? ''] : [];
  if (key === 'aws:TagKeys') return Object.keys(request.requestTags);
  return [];
}

const OPERATORS: Record<string, (values: string[], wanted: string[]) => boolean> = {
  StringEquals: (values, wanted) => values.length > 0 && values.some((v) => wanted.includes(v)),
  StringLike: (values, wanted) =>
    values.length > 0 && values.some((v) => wanted.some((w) => like(w, v))),
  'ForAllValues:StringEquals': (values, wanted) => values.every((v) => wanted.includes(v)),
};

/**
 * Whether an Allow statement grants an action on an instance (the operators the controller's
 * policy uses; any other makes the statement count as not granting, so the test cannot pass by
 * ignoring a condition). Keys a request does not have fail every operator but ForAllValues.
 */
function allows(statements: any[], request: InstanceRequest): boolean {
  return statements.some((s) => {
    if (s.Effect !== 'Allow' || ![s.Action].flat().includes(request.action)) return false;
    const resources = [s.Resource].flat().map((r) => JSON.stringify(r));
    if (!resources.some((r) => r.includes('instance/*') || r === '"*"')) return false;
    return Object.entries(s.Condition ?? {}).every(([operator, keys]) => {
      const test = OPERATORS[operator];
      if (test === undefined) return false;
      return Object.entries(keys as Record<string, string | string[]>).every(([key, wanted]) =>
        test(keyValues(key, request), [wanted].flat()),
      );
    });
  });
}

function actionsOf(statements: any[]): string[] {
  return statements.flatMap((s) => [s.Action].flat());
}

describe('the state tables', () => {
  it('are exactly the tables the DynamoDB adapter creates', () => {
    const tables = resources(eks, 'AWS::DynamoDB::GlobalTable').map(([, t]) => t.Properties);
    const definitions = tableDefinitions({ nodeClaims: 'claims', state: 'state' });
    expect(tables).toHaveLength(definitions.length);
    for (const definition of definitions) {
      const table = tables.find(
        (t) => JSON.stringify(t.KeySchema) === JSON.stringify(definition.KeySchema),
      );
      expect(table, JSON.stringify(definition.KeySchema)).toBeDefined();
      expect(table?.BillingMode).toBe(definition.BillingMode);
      const byName = (a: any, b: any) => a.AttributeName.localeCompare(b.AttributeName);
      expect([...(table?.AttributeDefinitions ?? [])].sort(byName)).toEqual(
        [...(definition.AttributeDefinitions ?? [])].sort(byName),
      );
      expect(table?.GlobalSecondaryIndexes ?? []).toEqual(definition.GlobalSecondaryIndexes ?? []);
    }
    const withIndex = tables.find((t) => t.GlobalSecondaryIndexes !== undefined);
    expect(withIndex?.GlobalSecondaryIndexes[0].IndexName).toBe(INSTANCE_ID_INDEX);
    const withTtl = tables.filter((t) => t.TimeToLiveSpecification !== undefined);
    expect(withTtl.map((t) => t.TimeToLiveSpecification)).toEqual([
      { AttributeName: TTL_ATTRIBUTE, Enabled: true },
    ]);
  });

  it('are retained, recoverable to a point in time, encrypted and protected from deletion', () => {
    for (const [id, table] of resources(eks, 'AWS::DynamoDB::GlobalTable')) {
      expect(table.DeletionPolicy, id).toBe('Retain');
      expect(table.Properties.SSESpecification, id).toEqual({ SSEEnabled: true, SSEType: 'KMS' });
      expect(table.Properties.Replicas, id).toEqual([
        expect.objectContaining({
          PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
          DeletionProtectionEnabled: true,
        }),
      ]);
    }
  });
});

describe('the queues and rules', () => {
  it('give every queue a dead-letter queue, and encrypt and require TLS on all of them', () => {
    const queues = resources(eks, 'AWS::SQS::Queue');
    const withDlq = queues.filter(([, q]) => q.Properties.RedrivePolicy !== undefined);
    expect(withDlq).toHaveLength(2);
    // Two dead-letter queues, and where failed audit log batches are kept.
    expect(queues).toHaveLength(5);
    for (const [id, queue] of queues) expect(queue.Properties.SqsManagedSseEnabled, id).toBe(true);
    const policies = resources(eks, 'AWS::SQS::QueuePolicy');
    for (const [, policy] of policies) {
      expect(JSON.stringify(policy.Properties.PolicyDocument)).toContain('aws:SecureTransport');
    }
    // Each queue, dead-letter queues included, has its TLS-only policy.
    const guarded = policies.flatMap(([, p]) => p.Properties.Queues.map((q: any) => q.Ref));
    expect(guarded.sort()).toEqual(queues.map(([id]) => id).sort());
  });

  it('send the five interruption events to the interruption queue, and the tick to the work queue, each with a DLQ', () => {
    const rules = resources(eks, 'AWS::Events::Rule');
    const patterns = rules.flatMap(([, r]) => r.Properties.EventPattern?.['detail-type'] ?? []);
    expect(patterns.sort()).toEqual([
      'AWS Health Event',
      'EC2 Capacity Reservation Instance Interruption Warning',
      'EC2 Instance Rebalance Recommendation',
      'EC2 Instance State-change Notification',
      'EC2 Spot Instance Interruption Warning',
    ]);
    for (const [id, rule] of rules) {
      for (const target of rule.Properties.Targets) {
        expect(target.DeadLetterConfig?.Arn, id).toBeDefined();
      }
    }
    eks.template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(1 minute)',
      Targets: [Match.objectLike({ Input: '{"source":"schedule","reason":"tick"}' })],
    });
  });
});

describe('the functions', () => {
  const functions = () =>
    resources(eks, 'AWS::Lambda::Function').filter(([, f]) => f.Properties.Runtime !== undefined);

  it('run Node.js 22 on arm64, log as JSON to their own log group, and take settings only from the stack', () => {
    expect(
      functions()
        .map(([id]) => id.replace(/[0-9A-F]{8}$/, ''))
        .sort(),
    ).toEqual(['Api', 'AuditLogs', 'Controller', 'Interruption', 'WakeWebhook']);
    for (const [id, fn] of functions()) {
      expect(fn.Properties.Runtime, id).toBe('nodejs22.x');
      expect(fn.Properties.Architectures, id).toEqual(['arm64']);
      expect(fn.Properties.LoggingConfig, id).toEqual({
        LogFormat: 'JSON',
        LogGroup: { Ref: expect.stringMatching(/Logs/) },
      });
    }
    const env = (prefix: string) =>
      Object.keys(
        functions().find(([id]) => id.startsWith(prefix))?.[1].Properties.Environment.Variables ??
          {},
      ).sort();
    expect(env('Controller')).toEqual([
      'AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED',
      'CLAIMS_TABLE',
      'CLUSTER_NAME',
      'EVENT_BUS_NAME',
      'STATE_TABLE',
      'WORK_QUEUE_URL',
    ]);
    const selfManagedEnv = (prefix: string) =>
      Object.keys(
        resources(selfManaged, 'AWS::Lambda::Function').find(([id]) => id.startsWith(prefix))?.[1]
          .Properties.Environment.Variables ?? {},
      ).sort();
    expect(selfManagedEnv('AuditWebhook')).toEqual([
      'AUDIT_TOKEN_SECRET_ARN',
      'AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED',
      'WORK_QUEUE_URL',
    ]);
    expect(env('WakeWebhook')).toEqual([
      'AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED',
      'STATE_TABLE',
      'WAKE_TOKEN_SECRET_ARN',
      'WORK_QUEUE_URL',
    ]);
  });

  it('leave a self-managed cluster’s CA out of the environment when it is to be read from the secret', () => {
    const { clusterCertificateAuthority: _ca, ...withoutCa } = SELF_MANAGED_CONTEXT;
    const controller = resources(buildStack(withoutCa), 'AWS::Lambda::Function').find(([id]) =>
      id.startsWith('Controller'),
    )?.[1];
    const variables = controller?.Properties.Environment.Variables;
    expect(variables).toHaveProperty('CLUSTER_SECRET_ARN');
    expect(variables).not.toHaveProperty('CLUSTER_CA');
  });

  it('give the controller and the API the starting limits, as the functions read them', () => {
    const env = (prefix: string) =>
      resources(selfManaged, 'AWS::Lambda::Function').find(([id]) => id.startsWith(prefix))?.[1]
        .Properties.Environment.Variables;
    for (const prefix of ['Controller', 'Api']) {
      const limits = startingLimits(env(prefix)?.CLUSTER_LIMITS);
      expect(limits?.spec.limits, prefix).toEqual({
        nodes: '400',
        'nodesmith.io/hourly-cost': '900',
      });
    }
    expect(
      resources(eks, 'AWS::Lambda::Function').some(
        ([, f]) => f.Properties.Environment?.Variables?.CLUSTER_LIMITS !== undefined,
      ),
    ).toBe(false);
  });

  /** A composition root's source and that of the start modules it imports. */
  function startingSources(folder: string): string[] {
    const root = readFileSync(`functions/handlers/${folder}/index.ts`, 'utf8');
    const starts = [...root.matchAll(/'\.\.\/\.\.\/(adapters\/lambda\/[\w-]+\.ts)'/g)];
    return [root, ...starts.map((m) => readFileSync(`functions/${m[1]}`, 'utf8'))];
  }

  it('give each composition root every setting it reads, on EKS and on a self-managed cluster', () => {
    // The relay's entry points share a root; each reads only the secret of its own token.
    const roots: Record<string, { folder: string; readByTheOther: string[] }> = {
      Controller: { folder: 'controller', readByTheOther: [] },
      Interruption: { folder: 'interruption', readByTheOther: [] },
      Api: { folder: 'api', readByTheOther: [] },
      // Only a self-managed cluster has an audit webhook; only the admission wake keeps a window.
      AuditWebhook: {
        folder: 'audit-relay',
        readByTheOther: [Variable.wakeTokenSecretArn, Variable.stateTable],
      },
      WakeWebhook: { folder: 'audit-relay', readByTheOther: [Variable.auditTokenSecretArn] },
    };
    // Lambda sets AWS_REGION itself; the controller reads these only for a self-managed cluster.
    const notOnEks = ['AWS_REGION', 'CLUSTER_ENDPOINT', 'KUBERNETES_VERSION'];
    const stacks = [
      { built: eks, unread: notOnEks },
      { built: selfManaged, unread: ['AWS_REGION'] },
    ];
    for (const [prefix, { folder, readByTheOther }] of Object.entries(roots)) {
      const read = startingSources(folder).flatMap((source) =>
        [...source.matchAll(/required\((?:Variable\.(\w+)|'(\w+)')\)/g)].map(
          ([, key, literal]) => Variable[key as keyof typeof Variable] ?? literal ?? '',
        ),
      );
      expect(read.length, folder).toBeGreaterThan(0);
      for (const { built, unread } of stacks) {
        if (prefix === 'AuditWebhook' && built === eks) continue;
        const given = resources(built, 'AWS::Lambda::Function').find(([id]) =>
          id.startsWith(prefix),
        )?.[1].Properties.Environment.Variables;
        for (const name of read.filter((n) => !unread.includes(n) && !readByTheOther.includes(n))) {
          expect(Object.keys(given ?? {}), `${prefix} reads ${name}`).toContain(name);
        }
      }
    }
  });

  it('reserve no concurrency unless told, so the stack deploys at the new-account quota, and cap the work queue at two', () => {
    const reserved = resources(eks, 'AWS::Lambda::Function').filter(
      ([, f]) => f.Properties.ReservedConcurrentExecutions !== undefined,
    );
    expect(reserved).toEqual([]);
    eks.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      ScalingConfig: { MaximumConcurrency: 2 },
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    const told = buildStack({ ...EKS_CONTEXT, controllerReservedConcurrency: '3' });
    const withReservation = resources(told, 'AWS::Lambda::Function').filter(
      ([, f]) => f.Properties.ReservedConcurrentExecutions !== undefined,
    );
    expect(
      withReservation.map(([id, f]) => [
        id.replace(/[0-9A-F]{8}$/, ''),
        f.Properties.ReservedConcurrentExecutions,
      ]),
    ).toEqual([['Controller', 3]]);
  });

  it('retry a failed interruption within seconds, five times inside a spot warning’s two minutes', () => {
    const [, fn] =
      resources(eks, 'AWS::Lambda::Function').find(([id]) => id.startsWith('Interruption')) ?? [];
    const mapping = resources(eks, 'AWS::Lambda::EventSourceMapping').find(([, m]) =>
      m.Properties.FunctionName.Ref?.startsWith('Interruption'),
    )?.[1];
    expect(mapping?.Properties.FunctionResponseTypes).toEqual(['ReportBatchItemFailures']);
    const queueId = mapping?.Properties.EventSourceArn['Fn::GetAtt'][0];
    const queue = eks.template.toJSON().Resources[queueId] as Resource;
    const visibility = queue.Properties.VisibilityTimeout;
    expect(fn?.Properties.Timeout).toBeLessThanOrEqual(visibility);
    expect(visibility).toBeLessThanOrEqual(30);
    expect(visibility * queue.Properties.RedrivePolicy.maxReceiveCount).toBeLessThan(120);
  });

  it('subscribe the EKS audit log group to the relay, pods and nodes only', () => {
    eks.template.hasResourceProperties('AWS::Logs::SubscriptionFilter', {
      LogGroupName: '/aws/eks/shop/cluster',
      FilterPattern: Match.stringLikeRegexp('objectRef.resource = "pods"'),
    });
    expect(resources(selfManaged, 'AWS::Logs::SubscriptionFilter')).toHaveLength(0);
  });

  it('leave the audit log and the audit webhook out unless chosen: the admission wake is the EKS wake', () => {
    // Prepare
    const plain = buildStack({ clusterName: 'shop', nodeRoleArn: NODE_ROLE });
    const routes = (built: BuiltStack) =>
      resources(built, 'AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties.RouteKey);
    const secrets = (built: BuiltStack) =>
      resources(built, 'AWS::SecretsManager::Secret').map(([id]) => id.replace(/[0-9A-F]{8}$/, ''));

    // Assess
    expect(resources(plain, 'AWS::Logs::SubscriptionFilter')).toEqual([]);
    expect(routes(plain).sort()).toEqual(['ANY /v1/{proxy+}', 'POST /v1/wake/{token}']);
    expect(secrets(plain)).toEqual(['FunctionsWakeToken']);
    expect(Object.keys(plain.template.findOutputs('*')).sort()).toEqual([
      'AlarmTopicArn',
      'ApiUrl',
      'ControllerRoleArn',
      'DecisionBusName',
      'StateTableName',
      'WakeTokenSecretArn',
      'WakeWebhookUrl',
    ]);
    expect(secrets(selfManaged).sort()).toEqual(['FunctionsAuditToken', 'FunctionsWakeToken']);
    selfManaged.template.hasOutput('AuditWebhookUrl', Match.anyValue());
    selfManaged.template.hasOutput('AuditTokenSecretArn', Match.anyValue());
  });

  it('keep audit log batches the relay failed in a queue of their own, alarmed', () => {
    const configs = resources(eks, 'AWS::Lambda::EventInvokeConfig').map(([, c]) => c.Properties);
    expect(configs).toEqual([
      expect.objectContaining({
        FunctionName: { Ref: expect.stringMatching(/^AuditLogs/) },
        DestinationConfig: {
          OnFailure: {
            Destination: { 'Fn::GetAtt': [expect.stringMatching(/^AuditLogFailures/), 'Arn'] },
          },
        },
      }),
    ]);
    const queueId = configs[0]?.DestinationConfig.OnFailure.Destination['Fn::GetAtt'][0];
    const alarm = resources(eks, 'AWS::CloudWatch::Alarm').find(([id]) =>
      id.includes('AuditLogsDeadLetters'),
    )?.[1];
    expect(JSON.stringify(alarm?.Properties.Dimensions)).toContain(queueId);
    expect(resources(selfManaged, 'AWS::Lambda::EventInvokeConfig')).toEqual([]);
  });
});

describe('IAM', () => {
  it('names no action with a wildcard, anywhere', () => {
    for (const built of [eks, selfManaged]) {
      for (const [id, policy] of resources(built, 'AWS::IAM::Policy')) {
        for (const action of actionsOf(policy.Properties.PolicyDocument.Statement)) {
          expect(action, id).not.toMatch(/\*/);
        }
      }
    }
  });

  it('lets the controller create EC2 resources only tagged for the cluster, and end only its own', () => {
    const statements = statementsOf(eks, 'ControllerRole');
    const create = statements.find((s) => s.Sid === 'CreateOnlyTaggedForTheCluster');
    expect(create.Condition.StringEquals).toEqual({
      'aws:RequestTag/kubernetes.io/cluster/shop': 'owned',
      'aws:RequestTag/nodesmith.io/cluster': 'shop',
    });
    expect(create.Action).toEqual([
      'ec2:RunInstances',
      'ec2:CreateFleet',
      'ec2:CreateLaunchTemplate',
    ]);
    const terminate = statements.find((s) => s.Sid === 'TerminateOnlyTheClustersOwn');
    const tagging = statements.find((s) => s.Sid === 'TagOnlyWhileCreating');
    expect(terminate.Condition).toEqual({
      StringEquals: {
        'aws:ResourceTag/kubernetes.io/cluster/shop': 'owned',
        'aws:ResourceTag/nodesmith.io/cluster': 'shop',
      },
    });
    expect(tagging.Condition.StringEquals['aws:RequestTag/nodesmith.io/cluster']).toBe('shop');
    expect(tagging.Condition.StringEquals['ec2:CreateAction']).toEqual([
      'RunInstances',
      'CreateFleet',
      'CreateLaunchTemplate',
    ]);
    const describe = statements.find((s) => s.Sid === 'DescribeInTheRegion');
    expect(describe.Condition).toEqual({ StringEquals: { 'aws:RequestedRegion': 'us-east-1' } });
    // Capacity reservations are resolved from the class's selector terms (docs/cloud-provider.md).
    expect(describe.Action).toContain('ec2:DescribeCapacityReservations');
  });

  it('lets the controller create the spot service-linked role a new account lacks, and no other', () => {
    const creating = statementsOf(eks, 'ControllerRole').filter((s) =>
      [s.Action].flat().includes('iam:CreateServiceLinkedRole'),
    );
    expect(creating).toEqual([
      expect.objectContaining({
        Action: 'iam:CreateServiceLinkedRole',
        Resource: {
          'Fn::Join': [
            '',
            [
              'arn:',
              { Ref: 'AWS::Partition' },
              ':iam::111122223333:role/aws-service-role/spot.amazonaws.com/AWSServiceRoleForEC2Spot',
            ],
          ],
        },
        Condition: { StringEquals: { 'iam:AWSServiceName': 'spot.amazonaws.com' } },
      }),
    ]);
  });

  it('lets the controller delete only the instance profiles tagged for the cluster, under its path', () => {
    const deleting = statementsOf(eks, 'ControllerRole').filter((s) =>
      [s.Action].flat().includes('iam:DeleteInstanceProfile'),
    );
    expect(deleting).toEqual([
      expect.objectContaining({
        Resource: {
          'Fn::Join': [
            '',
            ['arn:', { Ref: 'AWS::Partition' }, ':iam::111122223333:instance-profile/nodesmith/*'],
          ],
        },
        Condition: { StringEquals: { 'aws:ResourceTag/kubernetes.io/cluster/shop': 'owned' } },
      }),
    ]);
    expect(deleting[0].Action).toContain('iam:RemoveRoleFromInstanceProfile');
  });

  it("keeps Karpenter's and managed node groups' instances out of reach of every statement that changes an instance", () => {
    const instances = {
      nodesmith: { 'kubernetes.io/cluster/shop': 'owned', 'nodesmith.io/cluster': 'shop' },
      karpenter: { 'kubernetes.io/cluster/shop': 'owned', 'karpenter.sh/nodepool': 'general' },
      nodeGroup: { 'kubernetes.io/cluster/shop': 'owned', 'eks:nodegroup-name': 'system' },
      otherCluster: { 'kubernetes.io/cluster/lab': 'owned', 'nodesmith.io/cluster': 'lab' },
    };
    const requests: Omit<InstanceRequest, 'resourceTags'>[] = [
      { action: 'ec2:TerminateInstances', requestTags: {} },
      { action: 'ec2:CreateTags', requestTags: { 'nodesmith.io/cluster': 'shop' } },
      { action: 'ec2:CreateTags', requestTags: { Name: 'renamed' } },
    ];
    const reach = (built: BuiltStack) => {
      const statements = statementsOf(built, 'ControllerRole');
      return Object.fromEntries(
        Object.entries(instances).map(([who, tags]) => [
          who,
          requests
            .filter((r) => allows(statements, { ...r, resourceTags: tags }))
            .map((r) => `${r.action} ${Object.keys(r.requestTags).join(',')}`.trim()),
        ]),
      );
    };
    expect(reach(eks)).toEqual({
      nodesmith: ['ec2:TerminateInstances'],
      karpenter: [],
      nodeGroup: [],
      otherCluster: [],
    });
    expect(reach(adopting)).toEqual({
      nodesmith: ['ec2:TerminateInstances'],
      karpenter: ['ec2:CreateTags nodesmith.io/cluster'],
      nodeGroup: [],
      otherCluster: [],
    });
    expect(statementsOf(eks, 'ControllerRole').map((s) => s.Sid)).not.toContain(
      'AdoptKarpenterInstances',
    );
  });

  it('gives the controller ADOPT_KARPENTER_NODES only when adoption is on', () => {
    const environmentOf = (built: BuiltStack) =>
      resources(built, 'AWS::Lambda::Function')
        .map(([, f]) => f.Properties.Environment?.Variables ?? {})
        .filter((v) => 'EVENT_BUS_NAME' in v);
    expect(environmentOf(eks)).toEqual([
      expect.not.objectContaining({ ADOPT_KARPENTER_NODES: 'true' }),
    ]);
    expect(environmentOf(adopting)).toEqual([
      expect.objectContaining({ ADOPT_KARPENTER_NODES: 'true' }),
    ]);
  });

  it('lets the controller pass only the node role, and only to EC2', () => {
    const passing = statementsOf(eks, 'ControllerRole').filter((s) =>
      [s.Action].flat().includes('iam:PassRole'),
    );
    expect(passing).toEqual([
      expect.objectContaining({
        Resource: NODE_ROLE,
        Condition: { StringEquals: { 'iam:PassedToService': 'ec2.amazonaws.com' } },
      }),
    ]);
  });

  it('gives each function only what it uses', () => {
    const services = (prefix: string) =>
      [...new Set(actionsOf(statementsOf(eks, prefix)).map((a) => a.split(':')[0]))].sort();
    expect(services('ControllerRole')).toEqual([
      'dynamodb',
      'ec2',
      'eks',
      'events',
      'iam',
      'logs',
      'pricing',
      'sqs',
      'ssm',
    ]);
    expect(services('InterruptionRole')).toEqual(['dynamodb', 'eks', 'logs', 'sqs']);
    const selfManagedServices = (prefix: string) =>
      [...new Set(actionsOf(statementsOf(selfManaged, prefix)).map((a) => a.split(':')[0]))].sort();
    expect(selfManagedServices('AuditWebhookRole')).toEqual(['logs', 'secretsmanager', 'sqs']);
    expect(services('WakeWebhookRole')).toEqual(['dynamodb', 'logs', 'secretsmanager', 'sqs']);
    expect(services('AuditLogsRole')).toEqual(['logs', 'sqs']);
    expect(services('ApiRole')).toEqual(['dynamodb', 'eks', 'logs', 'sqs']);
  });

  it('lets the admission wake write its window and no other item of the state table', () => {
    const writing = statementsOf(eks, 'WakeWebhookRole').filter((s) =>
      actionsOf([s]).some((a) => a.startsWith('dynamodb:')),
    );
    expect(writing).toEqual([
      {
        Effect: 'Allow',
        Action: 'dynamodb:UpdateItem',
        Resource: { 'Fn::GetAtt': [expect.stringMatching(/^State[0-9A-F]{8}$/), 'Arn'] },
        Condition: {
          'ForAllValues:StringEquals': { 'dynamodb:LeadingKeys': [WAKE_WINDOW_PARTITION] },
        },
      },
    ]);
  });

  it('maps the functions that talk to Kubernetes to the RBAC group on EKS, and reads the kubeconfig secret otherwise', () => {
    const entries = resources(eks, 'AWS::EKS::AccessEntry').map(([, e]) => e.Properties);
    expect(entries).toHaveLength(3);
    for (const entry of entries)
      expect(entry).toMatchObject({ ClusterName: 'shop', Type: 'STANDARD' });
    const groupOf = (rolePrefix: string) =>
      entries.find((e) => String(e.PrincipalArn['Fn::GetAtt'][0]).startsWith(rolePrefix))
        ?.KubernetesGroups;
    expect(groupOf('ControllerRole')).toEqual(['nodesmith:controller']);
    expect(groupOf('InterruptionRole')).toEqual(['nodesmith:interruption']);
    expect(groupOf('ApiRole')).toEqual(['nodesmith:reader']);
    expect(resources(selfManaged, 'AWS::EKS::AccessEntry')).toHaveLength(0);
    const reads = statementsOf(selfManaged, 'ControllerRole').filter((s) =>
      [s.Action].flat().includes('secretsmanager:GetSecretValue'),
    );
    expect(reads.map((s) => s.Resource)).toEqual([SELF_MANAGED_CONTEXT.clusterSecretArn]);
  });
});

describe('the API', () => {
  it('signs every operator route with IAM, leaves the audit and wake routes to their tokens, and logs every request', () => {
    const routes = resources(selfManaged, 'AWS::ApiGatewayV2::Route').map(([, r]) => [
      r.Properties.RouteKey,
      r.Properties.AuthorizationType,
    ]);
    expect(routes.sort()).toEqual([
      ['ANY /v1/{proxy+}', 'AWS_IAM'],
      ['POST /v1/audit', 'NONE'],
      ['POST /v1/wake/{token}', 'NONE'],
    ]);
    selfManaged.template.hasResourceProperties('AWS::ApiGatewayV2::Api', { Name: 'nodesmith-lab' });
    selfManaged.template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      AccessLogSettings: Match.objectLike({ DestinationArn: Match.anyValue() }),
      DefaultRouteSettings: { ThrottlingBurstLimit: 100, ThrottlingRateLimit: 50 },
    });
  });

  it('throttles the wake route on its own, keeps its token out of the access log, and says where to point the webhook', () => {
    // Prepare
    const [[stageId, stage]] = resources(eks, 'AWS::ApiGatewayV2::Stage') as [[string, Resource]];
    const [[routeId]] = resources(eks, 'AWS::ApiGatewayV2::Route').filter(
      ([, r]) => r.Properties.RouteKey === 'POST /v1/wake/{token}',
    ) as [[string, Resource]];

    // Assess
    expect(stage.Properties.RouteSettings).toEqual({
      'POST /v1/wake/{token}': { ThrottlingBurstLimit: 5, ThrottlingRateLimit: 10 },
    });
    expect(eks.template.toJSON().Resources[stageId].DependsOn).toContain(routeId);
    const format = JSON.parse(stage.Properties.AccessLogSettings.Format);
    expect(Object.values(format)).not.toContain('$context.path');
    expect(format.route).toBe('$context.routeKey');
    eks.template.hasOutput('WakeWebhookUrl', {
      Value: { 'Fn::Join': ['', [Match.anyValue(), '/v1/wake/']] },
    });
    eks.template.hasOutput('WakeTokenSecretArn', {
      Value: { Ref: Match.stringLikeRegexp('WakeToken') },
    });
    eks.template.hasResourceProperties('AWS::SecretsManager::Secret', {
      GenerateSecretString: {
        SecretStringTemplate: '{}',
        GenerateStringKey: 'token',
        ExcludePunctuation: true,
        PasswordLength: 48,
      },
    });
  });

  it('reaches every route of the API function, /v1/nodeoverlays among them, through the IAM-signed one', () => {
    // Prepare
    const served = apiRoutes({
      state: makeMemoryStateStore(),
      waker: { wake: async () => {} },
      now: () => new Date(),
      dryRun: () => Promise.reject(new Error('not called')),
    }).map((route) => `${route.method} ${route.path}`);

    // Assess: all under ANY /v1/{proxy+}, none on the audit or wake routes
    expect(served).toEqual(
      expect.arrayContaining([
        'GET /v1/nodeoverlays',
        'GET /v1/nodeoverlays/{name}',
        'PUT /v1/nodeoverlays/{name}',
        'DELETE /v1/nodeoverlays/{name}',
      ]),
    );
    for (const route of served) expect(route).toMatch(/^[A-Z]+ \/v1\/(?!audit$|wake\/)[^/]/);
  });
});

describe('a private cluster endpoint', () => {
  it('puts the functions that reach the cluster in its subnets, and only them', () => {
    const inVpc = resources(selfManaged, 'AWS::Lambda::Function')
      .filter(([, f]) => f.Properties.VpcConfig !== undefined)
      .map(([id]) => id.replace(/[0-9A-F]{8}$/, ''));
    expect(inVpc.sort()).toEqual(['Api', 'Controller', 'Interruption']);
    selfManaged.template.hasResourceProperties('AWS::Lambda::Function', {
      VpcConfig: Match.objectLike({ SubnetIds: ['subnet-0a1b2c3d', 'subnet-1a2b3c4d'] }),
    });
  });

  it('gives those functions one security group, an output, and lets it reach the endpoint in the cluster’s group', () => {
    const groups = resources(selfManaged, 'AWS::EC2::SecurityGroup').map(([id]) => id);
    expect(groups).toHaveLength(1);
    for (const [id, fn] of resources(selfManaged, 'AWS::Lambda::Function')) {
      if (fn.Properties.VpcConfig === undefined) continue;
      expect(fn.Properties.VpcConfig.SecurityGroupIds, id).toEqual([
        { 'Fn::GetAtt': [groups[0], 'GroupId'] },
      ]);
    }
    selfManaged.template.hasOutput('FunctionsSecurityGroupId', {
      Value: { 'Fn::GetAtt': [groups[0], 'GroupId'] },
    });
    const ingress = resources(selfManaged, 'AWS::EC2::SecurityGroupIngress').map(
      ([, r]) => r.Properties,
    );
    expect(ingress).toEqual([
      expect.objectContaining({
        GroupId: 'sg-0f1e2d3c',
        SourceSecurityGroupId: { 'Fn::GetAtt': [groups[0], 'GroupId'] },
        IpProtocol: 'tcp',
        FromPort: 6443,
        ToPort: 6443,
      }),
    ]);
    expect(resources(eks, 'AWS::EC2::SecurityGroup')).toEqual([]);
    expect(Object.keys(eks.template.findOutputs('FunctionsSecurityGroupId'))).toEqual([]);
  });
});

describe('monitoring', () => {
  it('lets CloudWatch publish to the alarm topic and use its key', () => {
    const [[topicId, topic]] = resources(eks, 'AWS::SNS::Topic') as [[string, Resource]];
    const keyId = topic.Properties.KmsMasterKeyId?.['Fn::GetAtt']?.[0];
    const key = eks.template.toJSON().Resources[keyId] as Resource;
    expect(key?.Type).toBe('AWS::KMS::Key');
    expect(key.Properties.EnableKeyRotation).toBe(true);
    const cloudwatch = { Service: 'cloudwatch.amazonaws.com' };
    expect(key.Properties.KeyPolicy.Statement).toContainEqual(
      expect.objectContaining({
        Effect: 'Allow',
        Principal: cloudwatch,
        Action: expect.arrayContaining(['kms:Decrypt', 'kms:GenerateDataKey*']),
      }),
    );
    const policies = resources(eks, 'AWS::SNS::TopicPolicy').filter(([, p]) =>
      p.Properties.Topics.some((t: any) => t.Ref === topicId),
    );
    const statements = policies.flatMap(([, p]) => p.Properties.PolicyDocument.Statement);
    expect(statements).toContainEqual(
      expect.objectContaining({
        Effect: 'Allow',
        Principal: cloudwatch,
        Action: 'sns:Publish',
        Resource: { Ref: topicId },
        Condition: {
          StringEquals: { 'aws:SourceAccount': '111122223333' },
          ArnLike: {
            'aws:SourceArn': {
              'Fn::Join': [
                '',
                ['arn:', { Ref: 'AWS::Partition' }, ':cloudwatch:us-east-1:111122223333:alarm:*'],
              ],
            },
          },
        },
      }),
    );
  });

  it('alarms on dead letters, every function’s errors and the capacity error rate, to one topic', () => {
    const alarms = resources(eks, 'AWS::CloudWatch::Alarm');
    const named = alarms.map(([id]) => id.replace(/^Monitoring/, '').replace(/[0-9A-F]{8}$/, ''));
    expect(named.sort()).toEqual([
      'ApiErrors',
      'AuditLogsDeadLetters',
      'AuditLogsErrors',
      'CapacityErrorRate',
      'ControllerErrors',
      'InterruptionDeadLetters',
      'InterruptionErrors',
      'WakeWebhookErrors',
      'WorkDeadLetters',
    ]);
    const topics = resources(eks, 'AWS::SNS::Topic').map(([id]) => id);
    expect(topics).toHaveLength(1);
    for (const [id, alarm] of alarms) {
      expect(alarm.Properties.AlarmActions, id).toEqual([{ Ref: topics[0] }]);
    }
    const [[, dashboard]] = resources(eks, 'AWS::CloudWatch::Dashboard') as [[string, Resource]];
    const body = JSON.stringify(dashboard.Properties.DashboardBody);
    for (const shown of [
      'ProvisionablePods',
      'karpenter_nodeclaims_created_total',
      'karpenter_nodeclaims_disrupted_total',
      'karpenter_voluntary_disruption_decisions_total',
      'PassDuration',
      'LimitsReached',
    ]) {
      expect(body).toContain(shown);
    }
    expect(body).toContain('{Nodesmith,nodepool,service} MetricName=');
    expect(body).toContain('CostPerHour');
    // The capacity error rate reads Karpenter's claims created, summed under `service`.
    const [, rate] = alarms.find(([id]) => id.startsWith('MonitoringCapacityErrorRate')) ?? [];
    const metrics = JSON.stringify(rate?.Properties.Metrics);
    expect(metrics).toContain('karpenter_nodeclaims_created_total');
    expect(metrics).toContain('LaunchFailures');
  });

  it('leaves out each line that is turned off: alarms with their topic and key, the dashboard, the metrics', () => {
    // Prepare
    const quiet = buildStack({ ...EKS_CONTEXT, metrics: false, alarms: false });
    const noMetrics = buildStack({ ...EKS_CONTEXT, metrics: false });
    const environments = (built: BuiltStack) =>
      resources(built, 'AWS::Lambda::Function')
        .filter(([, f]) => f.Properties.Runtime !== undefined)
        .map(([, f]) => f.Properties.Environment.Variables);

    // Assess
    for (const type of [
      'AWS::CloudWatch::Alarm',
      'AWS::CloudWatch::Dashboard',
      'AWS::SNS::Topic',
      'AWS::KMS::Key',
    ]) {
      expect(resources(quiet, type), type).toEqual([]);
    }
    expect(Object.keys(quiet.template.findOutputs('AlarmTopicArn'))).toEqual([]);
    for (const variables of environments(quiet)) {
      expect(variables).toMatchObject({ POWERTOOLS_METRICS_DISABLED: 'true' });
    }
    for (const variables of environments(eks)) {
      expect(variables).not.toHaveProperty('POWERTOOLS_METRICS_DISABLED');
    }
    const alarms = resources(noMetrics, 'AWS::CloudWatch::Alarm').map(([id]) => id);
    expect(alarms.some((id) => id.includes('CapacityErrorRate'))).toBe(false);
    expect(alarms.some((id) => id.includes('ControllerErrors'))).toBe(true);
    expect(resources(noMetrics, 'AWS::CloudWatch::Dashboard')).toEqual([]);
  });
});
