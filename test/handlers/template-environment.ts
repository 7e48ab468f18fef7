/**
 * The environment the synthesized template gives a function, with CloudFormation's references
 * replaced by values of the shape they resolve to, so a composition root is started from exactly
 * the variables it would get when deployed.
 */
import { buildStack } from '../lib/stack-fixture.ts';

const REGION = 'us-east-1';
const ACCOUNT = '111122223333';

/** A physical value for a reference: URLs for queues, ARNs for attributes, names otherwise. */
function resolve(value: unknown, types: Readonly<Record<string, string>>): string {
  if (typeof value === 'string') return value;
  const intrinsic = value as Record<string, unknown>;
  if ('Ref' in intrinsic) {
    const id = String(intrinsic.Ref);
    if (id === 'AWS::Partition') return 'aws';
    if (id === 'AWS::Region') return REGION;
    if (id === 'AWS::AccountId') return ACCOUNT;
    if (types[id] === 'AWS::SQS::Queue')
      return `https://sqs.${REGION}.amazonaws.com/${ACCOUNT}/${id}`;
    return id;
  }
  if ('Fn::GetAtt' in intrinsic) {
    const [id, attribute] = intrinsic['Fn::GetAtt'] as [string, string];
    return attribute === 'Arn' ? `arn:aws:${id}` : `${id}.${attribute}`;
  }
  if ('Fn::Join' in intrinsic) {
    const [separator, parts] = intrinsic['Fn::Join'] as [string, unknown[]];
    return parts.map((part) => resolve(part, types)).join(separator);
  }
  throw new Error(`no value for ${JSON.stringify(value)}`);
}

/** Each function's environment, by the start of its logical id (`Controller`, `Interruption`, …). */
export function templateEnvironments(
  context: Record<string, unknown>,
): Record<string, Record<string, string>> {
  const resources = buildStack(context).template.toJSON().Resources as Record<
    string,
    { Type: string; Properties: { Runtime?: string; Environment?: { Variables: object } } }
  >;
  const types = Object.fromEntries(Object.entries(resources).map(([id, r]) => [id, r.Type]));
  const environments: Record<string, Record<string, string>> = {};
  for (const [id, resource] of Object.entries(resources)) {
    if (resource.Type !== 'AWS::Lambda::Function' || resource.Properties.Runtime === undefined)
      continue;
    const variables = Object.entries(resource.Properties.Environment?.Variables ?? {});
    environments[id.replace(/[0-9A-F]{8}$/, '')] = Object.fromEntries(
      variables.map(([name, value]) => [name, resolve(value, types)]),
    );
  }
  return environments;
}
