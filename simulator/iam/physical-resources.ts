/**
 * The names, ids and ARNs the simulated account gives the template's resources, as `Ref` and
 * `Fn::GetAtt` return them for each resource type (CloudFormation Template Reference, each
 * type's "Return values"). A resource with no name in its properties gets the stack's name and
 * its logical id, as CloudFormation names it, without the random suffix CloudFormation adds:
 * the simulation has one stack, and its names stay the same from run to run.
 */
import { createHash } from 'node:crypto';
import type { SimulatedAccount } from './simulated-account.ts';

export interface TemplateResource {
  readonly Type: string;
  readonly Properties?: Readonly<Record<string, unknown>>;
}

/** How a type is named: the property holding a given name, and its `Ref` and attributes. */
interface ResourceKind {
  readonly nameProperty?: string;
  readonly ref: (name: string, account: SimulatedAccount) => string;
  readonly attributes: Readonly<
    Record<string, (name: string, account: SimulatedAccount) => string>
  >;
}

function arn(account: SimulatedAccount, service: string, resource: string, regional = true) {
  const region = regional ? account.region : '';
  return `arn:${account.partition}:${service}:${region}:${account.accountId}:${resource}`;
}

const byName = (name: string) => name;

/** A secret's ARN ends in six characters Secrets Manager makes up; here, from its name. */
export function secretArn(name: string, account: SimulatedAccount): string {
  const suffix = createHash('sha256').update(name).digest('base64url').slice(0, 6);
  return arn(account, 'secretsmanager', `secret:${name}-${suffix}`);
}

function queueUrl(name: string, account: SimulatedAccount): string {
  const endpoint = account.sqsEndpoint ?? `https://sqs.${account.region}.${account.urlSuffix}`;
  return `${endpoint}/${account.accountId}/${name}`;
}

/** An HTTP API's id: ten lowercase letters and digits API Gateway makes up; here, from its name. */
function apiId(name: string): string {
  return createHash('sha256').update(name).digest('hex').slice(0, 10);
}

const tableArn = (name: string, account: SimulatedAccount) =>
  arn(account, 'dynamodb', `table/${name}`);

const KINDS: Readonly<Record<string, ResourceKind>> = {
  'AWS::IAM::Role': {
    nameProperty: 'RoleName',
    ref: byName,
    attributes: { Arn: (name, account) => arn(account, 'iam', `role/${name}`, false) },
  },
  'AWS::SQS::Queue': {
    nameProperty: 'QueueName',
    ref: queueUrl,
    attributes: {
      Arn: (name, account) => arn(account, 'sqs', name),
      QueueName: byName,
      QueueUrl: queueUrl,
    },
  },
  'AWS::Events::EventBus': {
    nameProperty: 'Name',
    ref: byName,
    attributes: {
      Arn: (name, account) => arn(account, 'events', `event-bus/${name}`),
      Name: byName,
    },
  },
  'AWS::Events::Rule': {
    nameProperty: 'Name',
    ref: byName,
    attributes: { Arn: (name, account) => arn(account, 'events', `rule/${name}`) },
  },
  'AWS::SecretsManager::Secret': {
    nameProperty: 'Name',
    ref: secretArn,
    attributes: { Id: secretArn },
  },
  'AWS::DynamoDB::GlobalTable': {
    nameProperty: 'TableName',
    ref: byName,
    attributes: { Arn: tableArn },
  },
  'AWS::DynamoDB::Table': {
    nameProperty: 'TableName',
    ref: byName,
    attributes: { Arn: tableArn },
  },
  'AWS::Logs::LogGroup': {
    nameProperty: 'LogGroupName',
    ref: byName,
    attributes: { Arn: (name, account) => arn(account, 'logs', `log-group:${name}:*`) },
  },
  'AWS::Lambda::Function': {
    nameProperty: 'FunctionName',
    ref: byName,
    attributes: { Arn: (name, account) => arn(account, 'lambda', `function:${name}`) },
  },
  'AWS::ApiGatewayV2::Api': {
    nameProperty: 'Name',
    ref: apiId,
    attributes: {
      ApiId: apiId,
      ApiEndpoint: (name, account) =>
        `https://${apiId(name)}.execute-api.${account.region}.${account.urlSuffix}`,
    },
  },
  'AWS::SNS::Topic': {
    nameProperty: 'TopicName',
    ref: (name, account) => arn(account, 'sns', name),
    attributes: { TopicArn: (name, account) => arn(account, 'sns', name), TopicName: byName },
  },
};

export class PhysicalResources {
  readonly #resources: Readonly<Record<string, TemplateResource>>;
  readonly #account: SimulatedAccount;

  constructor(resources: Readonly<Record<string, TemplateResource>>, account: SimulatedAccount) {
    this.#resources = resources;
    this.#account = account;
  }

  /** The name the resource is given: its name property when a plain string, else made up. */
  nameOf(logicalId: string): string {
    const resource = this.#resource(logicalId);
    const property = KINDS[resource.Type]?.nameProperty;
    const given = property === undefined ? undefined : resource.Properties?.[property];
    return typeof given === 'string' ? given : `${this.#account.stackName}-${logicalId}`;
  }

  /** What `Ref` returns; the made-up name for types this table lacks. */
  ref(logicalId: string): string {
    const kind = KINDS[this.#resource(logicalId).Type];
    const name = this.nameOf(logicalId);
    return kind === undefined ? name : kind.ref(name, this.#account);
  }

  /** What `Fn::GetAtt` returns; throws for an attribute this table lacks. */
  attribute(logicalId: string, attribute: string): string {
    const resource = this.#resource(logicalId);
    const value = KINDS[resource.Type]?.attributes[attribute];
    if (value === undefined) throw new Error(`no ${attribute} for ${resource.Type} ${logicalId}`);
    return value(this.nameOf(logicalId), this.#account);
  }

  #resource(logicalId: string): TemplateResource {
    const resource = this.#resources[logicalId];
    if (resource === undefined) throw new Error(`the template has no resource ${logicalId}`);
    return resource;
  }
}
