/**
 * AMI aliases (`al2023@latest`, `bottlerocket@v1.20.4`): EKS-optimized AMIs by family and
 * version. The family also implies the AMI family when `amiFamily` is left out.
 */
import type * as z from 'zod';
import { ALIAS_FAMILIES, aliasFamily } from '../../domain/node-class.ts';

const ALIAS = /^[a-zA-Z0-9]+@.+$/;

function aliasProblem(alias: string): string | undefined {
  if (!ALIAS.test(alias)) {
    return `alias "${alias}" must look like family@version, e.g. al2023@latest or al2023@v20240807`;
  }
  const [family = '', version = ''] = alias.split('@');
  if (aliasFamily(alias) === undefined) {
    return `alias family "${family}" is not one of ${Object.keys(ALIAS_FAMILIES).join(', ')}`;
  }
  if (family.startsWith('windows') && version !== 'latest') {
    return `windows aliases support only the version latest, got "${version}"`;
  }
  return undefined;
}

export function checkAlias(alias: string, ctx: z.RefinementCtx): void {
  const problem = aliasProblem(alias);
  if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem, path: ['alias'] });
}
