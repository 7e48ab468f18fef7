/**
 * The values CloudFormation gives the template's references once deployed, as the Lambda
 * runtime and the event sources read them: every intrinsic function resolved against the
 * simulated account and the names it gives the template's resources (simulator/iam), so the
 * functions' environment, the roles' policies and the event sources name the same queues,
 * tables and ARNs.
 */
import { PhysicalResources } from '../iam/physical-resources.ts';
import type { SimulatedAccount } from '../iam/simulated-account.ts';
import { resolveIntrinsics } from '../iam/template-intrinsics.ts';
import type { CloudFormationTemplate } from '../iam/template-policies.ts';

/** A property's value as deployed: strings as they are, intrinsics resolved. */
export type ResolveValue = (value: unknown) => string;

export function templateResolver(
  template: CloudFormationTemplate,
  account: SimulatedAccount,
): ResolveValue {
  const scope = {
    account,
    resources: new PhysicalResources(template.Resources, account),
    parameters: template.Parameters ?? {},
  };
  return (value) => {
    const resolved = resolveIntrinsics(value, scope);
    if (typeof resolved === 'object') throw new Error(`not one value: ${JSON.stringify(value)}`);
    return String(resolved);
  };
}
