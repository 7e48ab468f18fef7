/**
 * NodeSelectorRequirementWithMinValues and the rules Karpenter's CRDs put on it
 * (core: pkg/apis/v1/nodeclaim.go CEL rules, nodeclaim_validation.go `ValidateRequirement`).
 */
import * as z from 'zod';
import { Label, normalizeLabelKey, restrictedLabelReason } from '../../domain/labels.ts';
import { OPERATORS } from '../../domain/requirements/requirement.ts';
import { labelValue, qualifiedName } from './fields.ts';

/** Who writes the requirements: users write NodePools, Karpenter writes NodeClaims. */
export type RequirementOwner = 'NodePool' | 'NodeClaim' | 'NodeOverlay';

const BOUND_OPERATORS: ReadonlySet<string> = new Set(['Gt', 'Lt', 'Gte', 'Lte']);
const NON_NEGATIVE_INTEGER = /^[0-9]+$/;

const requirementFields = z.strictObject({
  key: qualifiedName,
  operator: z.enum(OPERATORS),
  values: z.array(labelValue).optional(),
  minValues: z.int().min(1).max(50).optional(),
});
type RequirementFields = z.output<typeof requirementFields>;

/**
 * Why Karpenter refuses the key. Beta keys are checked under their stable names, as Karpenter
 * normalizes them first; the EC2NodeClass label is allowed because the AWS CRDs list it (Karpenter
 * writes it into every NodeClaim's requirements).
 */
export function restrictedKeyReason(key: string, owner: RequirementOwner): string | undefined {
  const normalized = normalizeLabelKey(key);
  if (owner === 'NodePool' && normalized === Label.nodePool) {
    return `label ${Label.nodePool} is restricted; Karpenter sets it to the NodePool's name`;
  }
  if (normalized === Label.nodeClass) return undefined;
  return restrictedLabelReason(normalized);
}

export function valuesProblem(
  req: Pick<RequirementFields, 'operator' | 'values'>,
): string | undefined {
  const values = req.values ?? [];
  if (req.operator === 'In' && values.length === 0) {
    return 'operator In needs at least one value';
  }
  const single = values.length === 1 && NON_NEGATIVE_INTEGER.test(values[0] ?? '');
  if (BOUND_OPERATORS.has(req.operator) && !single) {
    return `operator ${req.operator} needs exactly one non-negative integer value, got [${values.join(', ')}]`;
  }
  return undefined;
}

function minValuesProblem(req: RequirementFields): string | undefined {
  const count = req.values?.length ?? 0;
  if (req.operator !== 'In' || req.minValues === undefined || count >= req.minValues) {
    return undefined;
  }
  return `minValues ${req.minValues} is more than the ${count} values listed; list at least ${req.minValues}`;
}

function requirement(owner: RequirementOwner) {
  return requirementFields.superRefine((req, ctx) => {
    const keyReason = restrictedKeyReason(req.key, owner);
    if (keyReason !== undefined)
      ctx.addIssue({ code: 'custom', message: keyReason, path: ['key'] });
    const values = valuesProblem(req);
    if (values !== undefined) ctx.addIssue({ code: 'custom', message: values, path: ['values'] });
    const minValues = minValuesProblem(req);
    if (minValues !== undefined) {
      ctx.addIssue({ code: 'custom', message: minValues, path: ['minValues'] });
    }
  });
}

/** At most 100 requirements, each valid for its owner. */
export function requirements(owner: RequirementOwner) {
  return z.array(requirement(owner)).max(100);
}

/** Requirements Karpenter resolved for an AMI (status): plain NodeSelectorRequirements. */
export const resolvedRequirement = z.looseObject({
  key: z.string(),
  operator: z.enum(OPERATORS),
  values: z.array(z.string()).optional(),
});
