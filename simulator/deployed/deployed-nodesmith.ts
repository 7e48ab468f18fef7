/**
 * Nodesmith as `cdk deploy` makes it, running in the simulated world (docs/design.md §9): each
 * function's bundle from the synthesized cloud assembly in its own process, with exactly its
 * template environment and its role's keys; every AWS call over HTTP to the simulated account,
 * evaluated against the role's policies as synthesized; every Kubernetes request authenticated —
 * on EKS by its token, for its role's access entry; on a self-managed cluster by the kubeconfig
 * secret's token, for the API server's token file — and authorized by deploy/rbac.yaml for its
 * group; DynamoDB on DynamoDB Local under the template's table names, with the transaction
 * conflicts DynamoDB has and Local does not; the functions woken only by what the template wires
 * — the SQS event source mappings, the EventBridge rules and schedule, the HTTP API's routes the
 * cluster's webhooks call, the EKS audit log's subscription.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { makeDynamoDbStateStore } from '../../functions/adapters/dynamodb/dynamodb-state-store.ts';
import { createTables } from '../../functions/adapters/dynamodb/tables.ts';
import { Variable } from '../../functions/contract/environment.ts';
import type { Decision, LimitReached } from '../../functions/ports/decisions.ts';
import type { StateStore } from '../../functions/ports/state-store.ts';
import type { WakeSource } from '../../functions/ports/wake.ts';
import type { PassReport } from '../../functions/use-cases/controller/pass-report.ts';
import type { AccessControl } from '../api-server/access-control.ts';
import type { JsonObject } from '../api-server/json.ts';
import { tokenFileAuthenticator } from '../api-server/token-file.ts';
import { accountLookups } from '../aws/account-lookups.ts';
import { type DatedDynamoDb, startDatedDynamoDb } from '../aws/dynamodb/dated-dynamodb.ts';
import { keySchemas, TransactionConflicts } from '../aws/dynamodb/transaction-conflicts.ts';
import { eksAuthenticator } from '../aws/eks/eks-authenticator.ts';
import {
  type AwsEndpoint,
  callCounts,
  callCountsByFunction,
  startAwsEndpoint,
} from '../aws/endpoint.ts';
import { deliverToQueues } from '../aws/eventbridge/queue-targets.ts';
import type { AwsEvent } from '../aws/eventbridge/simulated-event-bridge.ts';
import type { SqsQueue } from '../aws/sqs/sqs-queue.ts';
import { makeAuthorizer } from '../iam/authorizer.ts';
import { simulatedAccount } from '../iam/simulated-account.ts';
import { templatePolicies } from '../iam/template-policies.ts';
import { isKubernetesPermission } from '../kubernetes-rbac/removed-permissions.ts';
import { asyncInvokeConfigs } from '../lambda/async-invocation.ts';
import { eventRules } from '../lambda/event-rules.ts';
import type { LambdaFunction } from '../lambda/lambda-function.ts';
import { lambdaFunctions } from '../lambda/lambda-functions.ts';
import { logSubscriptions, SubscribedLogGroups } from '../lambda/logs-subscription.ts';
import { ScheduledRules } from '../lambda/scheduled-rules.ts';
import {
  SqsEventSourceMapping,
  sqsEventSourceMappings,
} from '../lambda/sqs-event-source-mapping.ts';
import { type ResolveValue, templateResolver } from '../lambda/template-resolver.ts';
import type {
  AwsActivity,
  KubernetesActivity,
  KubernetesDenial,
  Nodesmith,
} from '../run/nodesmith.ts';
import type { World } from '../run/world.ts';
import type { SynthesizedStack } from '../synthesis/synthesized-stack.ts';
import { accessEntries } from './access-entries.ts';
import { DeployedAccount } from './deployed-account.ts';
import { DeployedAuditWebhook } from './deployed-audit-webhook.ts';
import { deployedClusterAccess } from './deployed-cluster-access.ts';
import { DeployedHttpApi } from './deployed-http-api.ts';
import { DeployedWakeRoute } from './deployed-wake-route.ts';
import type { DeploymentContext } from './deployment-context.ts';
import { clusterAccessSecret, TOKEN_FILE } from './self-managed-cluster.ts';

export interface DeploymentOptions {
  readonly stack: SynthesizedStack;
  readonly context: DeploymentContext;
  readonly dynamodbEndpoint: string;
  /** The world's region: the account's functions run there. */
  readonly region: string;
  /**
   * Actions removed from every role for the run (`--deny`): IAM actions, and Kubernetes
   * permissions written `k8s:<verb>:<resource>`.
   */
  readonly deny?: readonly string[];
  /** The RBAC files applied to the cluster (deploy/rbac.yaml, …): what its groups may do. */
  readonly rbacFiles: readonly string[];
  /** Each line a function writes, as CloudWatch Logs gets it. */
  readonly onLog?: (functionLogicalId: string, line: string) => void;
}

/** A decision as the bus carries it: with the detail's version and the cluster's name. */
type PublishedDecision = (Decision | LimitReached) & { version: string; cluster: string };

/** At most this many polls of the queues in one simulated second, so a busy queue cannot spin. */
const POLLS_PER_SECOND = 4;

/** The queue a platform team would route the decision bus to, read back for the report. */
const DECISIONS_QUEUE = 'simulation-decisions';

/** The key of a function's role: one per function, made from its logical id. */
function accessKeyOf(logicalId: string): string {
  const letters = logicalId.toUpperCase().replace(/[^A-Z0-9]/g, '');
  return `ASIA${letters.slice(0, 12).padEnd(12, 'X')}${letters.slice(-4)}`;
}

/** What Lambda gives a function's process: its role's session credentials. */
function credentialsOf(logicalId: string) {
  return {
    accessKeyId: accessKeyOf(logicalId),
    secretAccessKey: `secret-of-${logicalId}`,
    sessionToken: `session-of-${logicalId}`,
  };
}

/** The state the deployed functions keep: the template's two tables, on DynamoDB Local. */
export async function deployedStateStore(
  options: Pick<DeploymentOptions, 'stack' | 'dynamodbEndpoint'>,
): Promise<StateStore> {
  const account = simulatedAccount({ stackName: options.stack.stackName });
  const resolve = templateResolver(options.stack.template, account);
  const tables = tableNames(options.stack, resolve);
  const client = new DynamoDBClient({
    endpoint: options.dynamodbEndpoint,
    region: account.region,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  // The world runs on simulated time: DynamoDB Local's TTL would expire items by the wall clock.
  await createTables(client, tables, { timeToLive: false });
  return makeDynamoDbStateStore({ client: DynamoDBDocumentClient.from(client), tables });
}

/** A variable of the controller's environment, as deployed. */
function controllerVariable(stack: SynthesizedStack, resolve: ResolveValue, name: string): string {
  for (const resource of Object.values(stack.template.Resources)) {
    if (resource.Type !== 'AWS::Lambda::Function') continue;
    const variables = (resource.Properties?.Environment as { Variables?: JsonObject } | undefined)
      ?.Variables;
    if (variables?.[Variable.claimsTable] !== undefined && variables[name] !== undefined) {
      return resolve(variables[name]);
    }
  }
  throw new Error(`the controller's environment has no ${name}`);
}

function tableNames(stack: SynthesizedStack, resolve: ResolveValue) {
  return {
    state: controllerVariable(stack, resolve, Variable.stateTable),
    nodeClaims: controllerVariable(stack, resolve, Variable.claimsTable),
  };
}

type Now = () => number;
type Invoke = (logicalId: string, event: unknown) => Promise<unknown>;

/**
 * The account the stack was deployed to, behind its endpoint: every function's key maps to its
 * role, and every call is evaluated against that role's policies as synthesized.
 */
async function openAccount(world: World, options: DeploymentOptions, now: Now) {
  const { stack, context } = options;
  const names = simulatedAccount({ stackName: stack.stackName, region: options.region });
  const policies = templatePolicies(stack.template, names);
  let endpointUrl = '';
  const account = new DeployedAccount({
    template: stack.template,
    account: names,
    resolve: templateResolver(stack.template, names),
    ec2: world.cloud.ec2,
    clusterName: context.clusterName,
    nodeRole: context.nodeRoleArn.slice(context.nodeRoleArn.lastIndexOf('/') + 1),
    apiServerUrl: () => world.server.url,
    endpointUrl: () => endpointUrl,
    now,
  });
  const lookups = accountLookups({
    ec2: account.ec2,
    iam: account.iam,
    secretArn: (id) => account.secrets.arnOf(id),
  });
  const endpoint = await startAwsEndpoint({
    // The functions' `Date` runs on the simulated clock: so do the account's answers.
    now,
    services: account.services,
    credentials: Object.fromEntries(
      [...policies.roleOfFunction].map(([logicalId, roleArn]) => [
        accessKeyOf(logicalId),
        { functionName: logicalId, roleArn },
      ]),
    ),
    authorizer: makeAuthorizer(policies.policiesByRole, lookups, {
      account: names,
      ...(options.deny === undefined
        ? {}
        : { deny: options.deny.filter((entry) => !isKubernetesPermission(entry)) }),
    }),
  });
  endpointUrl = endpoint.url;
  if (context.clusterSecretArn !== undefined) createClusterAccessSecret(world, account, context);
  // Queue URLs name the endpoint: the SDK sends each SQS call to its queue URL's host.
  const resolve = templateResolver(stack.template, { ...names, sqsEndpoint: endpoint.url });
  return { account, endpoint, resolve, roleOfFunction: policies.roleOfFunction };
}

/**
 * The operator of a self-managed cluster creates the kubeconfig secret the stack names, once the
 * API server listens: its address, the CA it serves with, and Nodesmith's token.
 */
function createClusterAccessSecret(
  world: World,
  account: DeployedAccount,
  context: DeploymentContext,
): void {
  const { name, value } = clusterAccessSecret(world.server.url);
  const arn = account.secrets.put(name, value);
  if (arn !== context.clusterSecretArn) {
    throw new Error(
      `the cluster access secret is ${arn}, the stack names ${context.clusterSecretArn}`,
    );
  }
}

type Opened = Pick<
  Awaited<ReturnType<typeof openAccount>>,
  'account' | 'resolve' | 'roleOfFunction'
>;

/** EKS lets each function's role in as its access entry says. */
function eksAccess(world: World, options: DeploymentOptions, opened: Opened) {
  const { account, resolve, roleOfFunction } = opened;
  const holders = new Map(
    [...roleOfFunction].map(([logicalId, roleArn]) => [
      accessKeyOf(logicalId),
      { logicalId, roleArn, sessionName: logicalId },
    ]),
  );
  return eksAuthenticator({
    clusterName: options.context.clusterName,
    region: options.region,
    now: () => world.clock.now().getTime(),
    accountId: account.accountId,
    credentialsOf: (key) => {
      const holder = holders.get(key);
      return holder === undefined ? undefined : credentialsOf(holder.logicalId);
    },
    holderOf: (key) => holders.get(key),
    accessEntries: accessEntries(options.stack.template, resolve, options.context.clusterName),
  });
}

/**
 * The cluster lets each function in — EKS by its role's access entry, a self-managed cluster by
 * the token file that knows the kubeconfig secret's token — and RBAC decides for its groups:
 * from now on, the world's API server refuses what deploy/rbac.yaml does not allow.
 */
function controlClusterAccess(
  world: World,
  options: DeploymentOptions,
  opened: Opened,
): readonly KubernetesDenial[] {
  const authenticate: AccessControl['authenticate'] =
    options.context.clusterSecretArn === undefined
      ? eksAccess(world, options, opened)
      : tokenFileAuthenticator(TOKEN_FILE);
  const { access, denied } = deployedClusterAccess({
    authenticate,
    rbacFiles: options.rbacFiles,
    deny: options.deny ?? [],
  });
  world.server.controlAccess(access);
  return denied;
}

/**
 * Each function from its bundle, with its role's own key, DynamoDB on DynamoDB Local through
 * the front that dates its answers on the functions' clock.
 */
function startFunctions(
  options: DeploymentOptions,
  endpoints: { readonly aws: string; readonly dynamodb: string },
  resolve: ResolveValue,
  now: Now,
) {
  return lambdaFunctions(options.stack, {
    resolve,
    region: options.region,
    endpointUrl: endpoints.aws,
    serviceEndpoints: { DYNAMODB: endpoints.dynamodb },
    now,
    credentialsOf,
    ...(options.onLog === undefined ? {} : { onLog: options.onLog }),
  });
}

/**
 * What wakes the functions, as the template wires it: the queues' event source mappings, the
 * rules on EC2's events and the schedule; and a rule of the simulation's own that sends the
 * decision bus to a queue the report reads, as an operator would route it.
 */
function wireEventSources(
  stack: SynthesizedStack,
  account: DeployedAccount,
  resolve: ResolveValue,
  invoke: Invoke,
  now: Now,
) {
  const mappings = sqsEventSourceMappings(stack.template, resolve).map((definition) => {
    const queue = account.queues.byArn(definition.eventSourceArn);
    if (queue === undefined) throw new Error(`no queue ${definition.eventSourceArn}`);
    const deliver = (event: unknown) => invoke(definition.functionLogicalId, event);
    return new SqsEventSourceMapping(definition, { queue, invoke: deliver, now });
  });
  const rules = eventRules(stack.template, resolve);
  for (const rule of rules.filter((r) => r.enabled && r.eventPattern !== undefined)) {
    account.events.putRule(rule);
  }
  const decisionsQueue = account.queues.create(DECISIONS_QUEUE);
  account.events.putRule({
    name: DECISIONS_QUEUE,
    eventBusName: controllerVariable(stack, resolve, Variable.eventBusName),
    eventPattern: { source: [{ prefix: '' }] },
    targets: [{ id: 'report', arn: decisionsQueue.arn }],
  });
  const wakesSent = countWakes(account, controllerVariable(stack, resolve, Variable.workQueueUrl));
  const schedules = new ScheduledRules(rules, {
    accountId: account.accountId,
    region: account.region,
    createdMs: now(),
    deliver: deliverToQueues(account.queues),
  });
  return { mappings, schedules, decisionsQueue, wakesSent };
}

/**
 * The template's HTTP API, and the cluster's webhooks that call it as the operator configures
 * them: the admission wake, and a self-managed cluster's audit webhook when the stack has one.
 */
async function startWebhooks(
  stack: SynthesizedStack,
  account: DeployedAccount,
  resolve: ResolveValue,
  invoke: Invoke,
  now: Now,
) {
  const { template } = stack;
  const httpApi = await DeployedHttpApi.start({
    template,
    resolve,
    accountId: account.accountId,
    invoke,
    now,
  });
  const parts = { template, resolve, secrets: account.secrets };
  return {
    httpApi,
    wakeRoute: DeployedWakeRoute.of(httpApi, parts),
    auditWebhook: DeployedAuditWebhook.of(httpApi, parts),
  };
}

/** The wakes sent to the work queue, by their `source`, as the functions and rules send them. */
function countWakes(account: DeployedAccount, workQueueUrl: string): Map<string, number> {
  const queue = account.queues.byUrl(workQueueUrl);
  if (queue === undefined) throw new Error(`no work queue ${workQueueUrl}`);
  const sent = new Map<string, number>();
  queue.onSend((body) => {
    const { source } = JSON.parse(body) as { source?: string };
    if (source !== undefined) sent.set(source, (sent.get(source) ?? 0) + 1);
  });
  return sent;
}

export class DeployedNodesmith implements Nodesmith {
  readonly reportsPasses = false;
  readonly passes: readonly PassReport[] = [];
  readonly #world: World;
  readonly #context: DeploymentContext;
  readonly #account: DeployedAccount;
  readonly #endpoint: AwsEndpoint;
  readonly #dynamodb: DatedDynamoDb;
  readonly #functions: Record<string, LambdaFunction>;
  readonly #mappings: readonly SqsEventSourceMapping[];
  readonly #schedules: ScheduledRules;
  readonly #logs: SubscribedLogGroups;
  readonly #decisionsQueue: SqsQueue;
  readonly #decisions: Decision[] = [];
  readonly #wakesSent: ReadonlyMap<string, number>;
  readonly #httpApi: DeployedHttpApi;
  readonly #wakeRoute: DeployedWakeRoute;
  readonly #auditWebhook: DeployedAuditWebhook | undefined;
  readonly #kubernetesDenied: readonly KubernetesDenial[];
  #auditBatches = 0;

  private constructor(parts: {
    world: World;
    context: DeploymentContext;
    account: DeployedAccount;
    endpoint: AwsEndpoint;
    dynamodb: DatedDynamoDb;
    functions: Record<string, LambdaFunction>;
    mappings: readonly SqsEventSourceMapping[];
    schedules: ScheduledRules;
    logs: SubscribedLogGroups;
    decisionsQueue: SqsQueue;
    wakesSent: ReadonlyMap<string, number>;
    httpApi: DeployedHttpApi;
    wakeRoute: DeployedWakeRoute;
    auditWebhook: DeployedAuditWebhook | undefined;
    kubernetesDenied: readonly KubernetesDenial[];
  }) {
    this.#world = parts.world;
    this.#context = parts.context;
    this.#account = parts.account;
    this.#endpoint = parts.endpoint;
    this.#dynamodb = parts.dynamodb;
    this.#functions = parts.functions;
    this.#mappings = parts.mappings;
    this.#schedules = parts.schedules;
    this.#logs = parts.logs;
    this.#decisionsQueue = parts.decisionsQueue;
    this.#wakesSent = parts.wakesSent;
    this.#httpApi = parts.httpApi;
    this.#wakeRoute = parts.wakeRoute;
    this.#auditWebhook = parts.auditWebhook;
    this.#kubernetesDenied = parts.kubernetesDenied;
  }

  static async deploy(world: World, options: DeploymentOptions): Promise<DeployedNodesmith> {
    const now = () => world.clock.now().getTime();
    const opened = await openAccount(world, options, now);
    const { account, endpoint, resolve } = opened;
    const kubernetesDenied = controlClusterAccess(world, options, opened);
    const dynamodb = await startDatedDynamoDb({
      target: options.dynamodbEndpoint,
      now,
      conflicts: new TransactionConflicts(keySchemas(options.stack.template, resolve)),
    });
    const functions = startFunctions(
      options,
      { aws: endpoint.url, dynamodb: dynamodb.url },
      resolve,
      now,
    );
    const invoke = (logicalId: string, event: unknown) => {
      const fn = functions[logicalId];
      if (fn === undefined) throw new Error(`the template has no function ${logicalId}`);
      return fn.invoke(event);
    };
    return new DeployedNodesmith({
      world,
      context: options.context,
      account,
      endpoint,
      dynamodb,
      functions,
      kubernetesDenied,
      ...(await startWebhooks(options.stack, account, resolve, invoke, now)),
      ...wireEventSources(options.stack, account, resolve, invoke, now),
      logs: new SubscribedLogGroups(logSubscriptions(options.stack.template, resolve), {
        owner: account.accountId,
        invoke,
        functionArnOf: (logicalId) => functions[logicalId]?.definition.functionArn ?? '',
        asyncConfigOf: asyncInvokeConfigs(options.stack.template, resolve),
        now,
        onFailure: (arn, record) => account.queues.byArn(arn)?.send(JSON.stringify(record)),
      }),
    });
  }

  /**
   * A self-managed cluster's kube-apiserver posts the batch to the stack's audit webhook; EKS
   * writes each audit event to the cluster's log group, whose subscription carries it on.
   */
  async audit(eventList: JsonObject): Promise<number> {
    if (this.#auditWebhook !== undefined) return this.#auditWebhook.post(eventList);
    const group = this.#context.auditLogGroupName;
    if (group === undefined) throw new Error('the stack takes the audit log by no path');
    const items = (eventList.items ?? []) as JsonObject[];
    const timestamp = this.#world.clock.now().getTime();
    this.#auditBatches += 1;
    await this.#logs.putLogEvents(
      group,
      'kube-apiserver-audit-0',
      items.map((item, i) => ({
        id: `${this.#auditBatches}-${i}`,
        timestamp,
        message: JSON.stringify(item),
      })),
    );
    return 200;
  }

  async wakeUrl(): Promise<string> {
    return this.#wakeRoute.wakeUrl;
  }

  /** kube-apiserver's call reaches the template's HTTP API and the relay behind its route. */
  admission(url: string, review: JsonObject): Promise<unknown> {
    return this.#wakeRoute.admission(url, review);
  }

  async spotWarnings(bodies: readonly string[]): Promise<void> {
    for (const body of bodies) this.#account.events.emit(JSON.parse(body) as AwsEvent);
    await this.runDue();
  }

  /**
   * The schedule fires what is due, and each event source mapping polls its queue, invoking its
   * function with what it receives, until nothing more is delivered this second.
   */
  async runDue(): Promise<void> {
    this.#schedules.advanceTo(this.#world.clock.now().getTime());
    for (let poll = 0; poll < POLLS_PER_SECOND; poll++) {
      const started = this.#mappings.flatMap((m) => m.poll() ?? []);
      if (started.length === 0) return;
      await Promise.all(started);
    }
  }

  /** Wakes the work queue was sent by `source`: the functions send them over SQS here. */
  wakesSent(source: WakeSource): number {
    return this.#wakesSent.get(source) ?? 0;
  }

  invocationsEnded(): number {
    return Object.values(this.#functions).reduce((sum, f) => sum + f.tally.ended, 0);
  }

  decisions(): readonly Decision[] {
    for (let batch = this.#decisionsQueue.receive(10); batch.length > 0; ) {
      for (const message of batch) {
        const event = JSON.parse(message.body) as { detail: PublishedDecision };
        const { version: _version, cluster: _cluster, ...decision } = event.detail;
        if (decision.kind !== 'LimitReached') this.#decisions.push(decision as Decision);
        this.#decisionsQueue.delete(message.receiptHandle);
      }
      batch = this.#decisionsQueue.receive(10);
    }
    return this.#decisions;
  }

  /** Calls per IAM action of every function, what IAM refused, and each function's calls. */
  aws(): AwsActivity {
    const { calls, denied } = this.#endpoint;
    return { calls: callCounts(calls), denied, byFunction: callCountsByFunction(calls) };
  }

  /** What the API server refused the functions. */
  kubernetes(): KubernetesActivity {
    return { denied: this.#kubernetesDenied };
  }

  /** The audit webhook's batches the relay refused. */
  relayRefusals(): readonly string[] {
    return this.#auditWebhook?.refused ?? [];
  }

  async close(): Promise<void> {
    this.#world.server.controlAccess(undefined);
    await Promise.all(Object.values(this.#functions).map((f) => f.close()));
    await this.#httpApi.close();
    await this.#endpoint.close();
    await this.#dynamodb.close();
  }
}
