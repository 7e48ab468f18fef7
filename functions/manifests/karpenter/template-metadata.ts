/**
 * `spec.template.metadata` of a NodePool: labels and annotations copied onto every NodeClaim and
 * Node. Labels also become requirements, so the same restricted domains apply, and
 * `karpenter.sh/nodepool` is Karpenter's to set (core: nodepool_validation.go `validateLabels`).
 */
import * as z from 'zod';
import { labelValue, stringMap } from './fields.ts';
import { isQualifiedName } from './formats.ts';
import { restrictedKeyReason } from './requirements.ts';

const MAX_LABELS = 100;

function labelKeyProblem(key: string): string | undefined {
  if (!isQualifiedName(key)) {
    return `label key "${key}" is not a qualified name such as example.com/name`;
  }
  return restrictedKeyReason(key, 'NodePool');
}

const templateLabels = z.record(z.string(), labelValue).superRefine((labels, ctx) => {
  const keys = Object.keys(labels);
  if (keys.length > MAX_LABELS) {
    ctx.addIssue({
      code: 'custom',
      message: `must have at most ${MAX_LABELS} labels, got ${keys.length}`,
    });
  }
  for (const key of keys) {
    const problem = labelKeyProblem(key);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem, path: [key] });
  }
});

export const templateMetadata = z.strictObject({
  labels: templateLabels.optional(),
  annotations: stringMap.optional(),
});
