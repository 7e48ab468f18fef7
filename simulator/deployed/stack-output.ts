/**
 * An output of the deployed stack, as `aws cloudformation describe-stacks` reads it back for the
 * operator: the webhooks' URLs and the ARNs of their tokens' secrets.
 */
import type { CloudFormationTemplate } from '../iam/template-policies.ts';
import type { ResolveValue } from '../lambda/template-resolver.ts';

/** The output's value; undefined when the stack has no such output. */
export function stackOutput(
  template: CloudFormationTemplate,
  resolve: ResolveValue,
  name: string,
): string | undefined {
  const value = template.Outputs?.[name]?.Value;
  return value === undefined ? undefined : resolve(value);
}

/** The output's value, which every deployment of the stack has. */
export function requiredOutput(
  template: CloudFormationTemplate,
  resolve: ResolveValue,
  name: string,
): string {
  const value = stackOutput(template, resolve, name);
  if (value === undefined) throw new Error(`the stack has no ${name} output`);
  return value;
}
