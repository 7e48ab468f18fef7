/**
 * A field Karpenter's CRD has and Nodesmith cannot act on yet. It is validated as the CRD
 * would (so a bad value is named as such), then refused: a setting silently dropped would launch
 * nodes unlike the ones the document asks for.
 */
import type * as z from 'zod';

/** The refusal's wording; `path` in Kubernetes notation, e.g. `spec.placementGroupSelector`. */
export function notSupportedYetMessage(path: string, why: string): string {
  return `not supported yet: ${path} (${why})`;
}

export function notSupportedYet<S extends z.ZodType>(schema: S, path: string, why: string) {
  return schema.superRefine((_value, ctx) => {
    ctx.addIssue({ code: 'custom', message: notSupportedYetMessage(path, why) });
  });
}
