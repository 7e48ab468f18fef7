/**
 * The values CloudFormation gives the template's references once deployed. The Lambda runtime
 * takes them from a `ResolveValue` it is handed, so the simulated account's own naming (queues'
 * URLs, tables' names, ARNs) is decided in one place; `simpleTemplateResolver` is one that names
 * resources after their stack and logical id, for Ref, Fn::GetAtt, Fn::Join and Fn::Sub.
 */
import type { CloudFormationTemplate } from '../synthesis/cloud-assembly.ts';

/** A property's value as deployed: strings as they are, intrinsics resolved. */
export type ResolveValue = (value: unknown) => string;

export interface SimulatedAccount {
  readonly accountId: string;
  readonly region: string;
  readonly stackName: string;
  /**
   * The simulated account's endpoint. Queue URLs are made on it (`<endpoint>/<account>/<name>`):
   * the SQS client sends each request to its QueueUrl's host, whatever endpoint it was given.
   */
  readonly endpointUrl?: string;
}

/** `Ref` of each resource type, as CloudFormation documents it: a name, a URL or an ARN. */
function refOf(type: string, name: string, account: SimulatedAccount): string {
  const { accountId, region } = account;
  switch (type) {
    case 'AWS::SQS::Queue':
      return `${account.endpointUrl ?? `https://sqs.${region}.amazonaws.com`}/${accountId}/${name}`;
    case 'AWS::SecretsManager::Secret':
    case 'AWS::SNS::Topic':
      return arnOf(type, name, account);
    default:
      return name;
  }
}

const ARN_FORMATS: Readonly<Record<string, (name: string, a: SimulatedAccount) => string>> = {
  'AWS::SQS::Queue': (n, a) => `arn:aws:sqs:${a.region}:${a.accountId}:${n}`,
  'AWS::Lambda::Function': (n, a) => `arn:aws:lambda:${a.region}:${a.accountId}:function:${n}`,
  'AWS::IAM::Role': (n, a) => `arn:aws:iam::${a.accountId}:role/${n}`,
  'AWS::DynamoDB::Table': (n, a) => `arn:aws:dynamodb:${a.region}:${a.accountId}:table/${n}`,
  'AWS::DynamoDB::GlobalTable': (n, a) => `arn:aws:dynamodb:${a.region}:${a.accountId}:table/${n}`,
  'AWS::Events::EventBus': (n, a) => `arn:aws:events:${a.region}:${a.accountId}:event-bus/${n}`,
  'AWS::Events::Rule': (n, a) => `arn:aws:events:${a.region}:${a.accountId}:rule/${n}`,
  'AWS::Logs::LogGroup': (n, a) => `arn:aws:logs:${a.region}:${a.accountId}:log-group:${n}:*`,
  'AWS::SNS::Topic': (n, a) => `arn:aws:sns:${a.region}:${a.accountId}:${n}`,
  'AWS::SecretsManager::Secret': (n, a) =>
    `arn:aws:secretsmanager:${a.region}:${a.accountId}:secret:${n}-AbCdEf`,
};

function arnOf(type: string, name: string, account: SimulatedAccount): string {
  const format = ARN_FORMATS[type];
  if (format === undefined) throw new Error(`no ARN for a resource of type ${type}`);
  return format(name, account);
}

type Intrinsic = Readonly<Record<string, unknown>>;

/**
 * Names each resource `<stack>-<logicalId>`, as CloudFormation names a resource without an
 * explicit name (less its random suffix), or by its explicit name property when it has one.
 */
class SimpleResolver {
  readonly #template: CloudFormationTemplate;
  readonly #account: SimulatedAccount;
  readonly #pseudo: Readonly<Record<string, string>>;

  constructor(template: CloudFormationTemplate, account: SimulatedAccount) {
    this.#template = template;
    this.#account = account;
    this.#pseudo = {
      'AWS::Partition': 'aws',
      'AWS::Region': account.region,
      'AWS::AccountId': account.accountId,
      'AWS::StackName': account.stackName,
      'AWS::URLSuffix': 'amazonaws.com',
    };
  }

  resolve(value: unknown): string {
    if (typeof value === 'string') return value;
    if (typeof value === 'number' || typeof value === 'boolean') return String(value);
    const intrinsic = (value ?? {}) as Intrinsic;
    if ('Ref' in intrinsic) return this.#ref(String(intrinsic.Ref));
    if ('Fn::GetAtt' in intrinsic) return this.#attribute(intrinsic['Fn::GetAtt'] as string[]);
    if ('Fn::Join' in intrinsic) {
      const [separator, parts] = intrinsic['Fn::Join'] as [string, unknown[]];
      return parts.map((part) => this.resolve(part)).join(separator);
    }
    if (typeof intrinsic['Fn::Sub'] === 'string') return this.#sub(intrinsic['Fn::Sub']);
    throw new Error(`no value for ${JSON.stringify(value)}`);
  }

  #ref(id: string): string {
    return this.#pseudo[id] ?? refOf(this.#typeOf(id), this.#nameOf(id), this.#account);
  }

  #attribute([id = '', attribute]: readonly string[]): string {
    const [type, name] = [this.#typeOf(id), this.#nameOf(id)];
    if (attribute === 'Arn') return arnOf(type, name, this.#account);
    if (attribute === 'QueueUrl') return refOf(type, name, this.#account);
    if (attribute === 'QueueName' || attribute === 'Name') return name;
    throw new Error(`no value for ${id}.${attribute}`);
  }

  #sub(text: string): string {
    return text.replace(/\$\{([^}]+)\}/g, (_, name: string) => {
      const [id = '', attribute] = name.split('.');
      return attribute === undefined ? this.#ref(id) : this.#attribute([id, attribute]);
    });
  }

  #typeOf(id: string): string {
    return this.#template.Resources[id]?.Type ?? '';
  }

  #nameOf(id: string): string {
    const resource = this.#template.Resources[id];
    if (resource === undefined) throw new Error(`the template has no resource ${id}`);
    const props = resource.Properties ?? {};
    const explicit = props.FunctionName ?? props.QueueName ?? props.TableName ?? props.Name;
    return typeof explicit === 'string' ? explicit : `${this.#account.stackName}-${id}`;
  }
}

export function simpleTemplateResolver(
  template: CloudFormationTemplate,
  account: SimulatedAccount,
): ResolveValue {
  const resolver = new SimpleResolver(template, account);
  return (value) => resolver.resolve(value);
}
