/**
 * CloudFormation's intrinsic functions, resolved as the deployed stack would see them (AWS
 * CloudFormation Template Reference, "Intrinsic function reference"): `Ref` to pseudo parameters,
 * parameters' defaults and resources, `Fn::GetAtt`, `Fn::Join`, `Fn::Sub`, `Fn::Select` and
 * `Fn::Split`. Anything else (conditions, imports) is refused: the policies would be guessed.
 */
import type { PhysicalResources } from './physical-resources.ts';
import type { SimulatedAccount } from './simulated-account.ts';

export interface IntrinsicScope {
  readonly account: SimulatedAccount;
  readonly resources: PhysicalResources;
  /** Template parameters by name, with their `Default`. */
  readonly parameters: Readonly<Record<string, { readonly Default?: unknown }>>;
}

function pseudoParameter(name: string, account: SimulatedAccount): string | undefined {
  const values: Readonly<Record<string, string>> = {
    'AWS::Partition': account.partition,
    'AWS::Region': account.region,
    'AWS::AccountId': account.accountId,
    'AWS::URLSuffix': account.urlSuffix,
    'AWS::StackName': account.stackName,
  };
  return values[name];
}

function ref(name: string, scope: IntrinsicScope): string {
  const pseudo = pseudoParameter(name, scope.account);
  if (pseudo !== undefined) return pseudo;
  const parameter = scope.parameters[name];
  if (parameter !== undefined) return String(parameter.Default);
  return scope.resources.ref(name);
}

function getAtt(target: unknown, scope: IntrinsicScope): string {
  const [id, attribute] = typeof target === 'string' ? target.split('.', 2) : (target as string[]);
  return scope.resources.attribute(String(id), String(attribute));
}

/** `${Name}` and `${Resource.Attribute}` from the variables or the template; `${!x}` is literal. */
function sub(argument: unknown, scope: IntrinsicScope): string {
  const [text, variables] =
    typeof argument === 'string' ? [argument, {}] : (argument as [string, Record<string, unknown>]);
  return text.replace(/\$\{(!?)([^}]+)\}/g, (_, literal: string, name: string) => {
    if (literal === '!') return `\${${name}}`;
    if (name in variables) return resolveString(variables[name], scope);
    return name.includes('.') ? getAtt(name, scope) : ref(name, scope);
  });
}

const FUNCTIONS: Readonly<Record<string, (argument: unknown, scope: IntrinsicScope) => unknown>> = {
  Ref: (name, scope) => ref(String(name), scope),
  'Fn::GetAtt': getAtt,
  'Fn::Join': (argument, scope) => {
    const [separator, parts] = argument as [string, unknown[]];
    return parts.map((part) => resolveString(part, scope)).join(separator);
  },
  'Fn::Sub': sub,
  'Fn::Select': (argument, scope) => {
    const [index, list] = argument as [unknown, unknown];
    return (resolveIntrinsics(list, scope) as unknown[])[Number(resolveIntrinsics(index, scope))];
  },
  'Fn::Split': (argument, scope) => {
    const [separator, text] = argument as [string, unknown];
    return resolveString(text, scope).split(separator);
  },
};

function resolveString(value: unknown, scope: IntrinsicScope): string {
  const resolved = resolveIntrinsics(value, scope);
  if (typeof resolved !== 'string') throw new Error(`not a string: ${JSON.stringify(value)}`);
  return resolved;
}

/** The value with every intrinsic function in it replaced by what it returns. */
export function resolveIntrinsics(value: unknown, scope: IntrinsicScope): unknown {
  if (Array.isArray(value)) return value.map((item) => resolveIntrinsics(item, scope));
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value);
  const [name, argument] = entries[0] ?? [];
  if (entries.length === 1 && name !== undefined && (name === 'Ref' || name.startsWith('Fn::'))) {
    const apply = FUNCTIONS[name];
    if (apply === undefined) throw new Error(`unsupported intrinsic function ${name}`);
    return apply(argument, scope);
  }
  return Object.fromEntries(entries.map(([key, item]) => [key, resolveIntrinsics(item, scope)]));
}
