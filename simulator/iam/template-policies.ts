/**
 * Each function's role and the policies IAM evaluates for it, exactly as synthesized: the role's
 * own inline `Policies`, every `AWS::IAM::Policy` and `AWS::IAM::ManagedPolicy` naming it in
 * `Roles`, and its `ManagedPolicyArns` (AWS's, vendored in managed-policies.ts), with every
 * intrinsic function resolved against the simulated account and the names it gives resources.
 * The template is the synthesized JSON (`cdk.out/<stack>.template.json`, or `Template.toJSON()`).
 */
import { managedPolicy } from './managed-policies.ts';
import { PhysicalResources, type TemplateResource } from './physical-resources.ts';
import type { PolicyDocument } from './policy-document.ts';
import type { SimulatedAccount } from './simulated-account.ts';
import { type IntrinsicScope, resolveIntrinsics } from './template-intrinsics.ts';

export interface CloudFormationTemplate {
  readonly Resources: Readonly<Record<string, TemplateResource>>;
  readonly Parameters?: Readonly<Record<string, { readonly Default?: unknown }>>;
  readonly Outputs?: Readonly<Record<string, { readonly Value: unknown }>>;
}

export interface TemplatePolicies {
  /** Role ARN → every policy document attached to the role. */
  readonly policiesByRole: ReadonlyMap<string, readonly PolicyDocument[]>;
  /** Function logical id → the ARN of its execution role. */
  readonly roleOfFunction: ReadonlyMap<string, string>;
  /** The names and ARNs the account gave the template's resources. */
  readonly resources: PhysicalResources;
}

function resourcesOfType(template: CloudFormationTemplate, type: string) {
  return Object.entries(template.Resources).filter(([, resource]) => resource.Type === type);
}

/** The resolved properties of a resource. */
function propertiesOf(resource: TemplateResource, scope: IntrinsicScope) {
  return resolveIntrinsics(resource.Properties ?? {}, scope) as Record<string, unknown>;
}

function rolePolicies(role: Record<string, unknown>): PolicyDocument[] {
  const inline = (role.Policies ?? []) as { PolicyDocument: PolicyDocument }[];
  const managed = (role.ManagedPolicyArns ?? []) as string[];
  return [...inline.map((policy) => policy.PolicyDocument), ...managed.map(managedPolicy)];
}

/** Policies attached from outside the role, by the role names in their `Roles`. */
function attachedPolicies(template: CloudFormationTemplate, scope: IntrinsicScope) {
  const byRoleName = new Map<string, PolicyDocument[]>();
  for (const type of ['AWS::IAM::Policy', 'AWS::IAM::ManagedPolicy']) {
    for (const [, resource] of resourcesOfType(template, type)) {
      const policy = propertiesOf(resource, scope);
      for (const roleName of (policy.Roles ?? []) as string[]) {
        byRoleName.set(roleName, [
          ...(byRoleName.get(roleName) ?? []),
          policy.PolicyDocument as PolicyDocument,
        ]);
      }
    }
  }
  return byRoleName;
}

export function templatePolicies(
  template: CloudFormationTemplate,
  account: SimulatedAccount,
): TemplatePolicies {
  const resources = new PhysicalResources(template.Resources, account);
  const scope: IntrinsicScope = { account, resources, parameters: template.Parameters ?? {} };
  const attached = attachedPolicies(template, scope);
  const policiesByRole = new Map<string, readonly PolicyDocument[]>();
  for (const [id, role] of resourcesOfType(template, 'AWS::IAM::Role')) {
    policiesByRole.set(resources.attribute(id, 'Arn'), [
      ...rolePolicies(propertiesOf(role, scope)),
      ...(attached.get(resources.ref(id)) ?? []),
    ]);
  }
  const roleOfFunction = new Map<string, string>();
  for (const [id, fn] of resourcesOfType(template, 'AWS::Lambda::Function')) {
    roleOfFunction.set(id, resolveIntrinsics(fn.Properties?.Role, scope) as string);
  }
  return { policiesByRole, roleOfFunction, resources };
}
