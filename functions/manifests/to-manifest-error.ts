/**
 * Turns zod's issues into one ManifestError naming the field in Kubernetes notation.
 *
 * Only the first problem is reported, as kubectl users are used to fixing one field at a time and
 * a single path is what a CLI or an API 4xx can point at. Unknown fields come first: a misspelt
 * key (`requirments`) is usually also why a required field looks missing.
 */
import type { z } from 'zod';
import { formatFieldPath } from './field-path.ts';
import { ManifestError } from './manifest-error.ts';

type Issue = z.core.$ZodIssue;

function rank(issue: Issue): number {
  return issue.code === 'unrecognized_keys' ? 0 : 1;
}

/** The issue to report: the first unknown field, else the first issue in document order. */
export function firstIssue(issues: readonly Issue[]): Issue | undefined {
  return [...issues].sort((a, b) => rank(a) - rank(b))[0];
}

function locate(issue: Issue): { readonly path: readonly PropertyKey[]; readonly detail: string } {
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0] ?? '';
    return { path: [...issue.path, key], detail: `unknown field "${key}"` };
  }
  return { path: issue.path, detail: issue.message };
}

export function toManifestError(error: z.core.$ZodError): ManifestError {
  const issue = firstIssue(error.issues);
  if (issue === undefined) return new ManifestError('document is invalid', {}, { cause: error });
  const { path, detail } = locate(issue);
  const field = formatFieldPath(path);
  return new ManifestError(detail, field === '' ? {} : { path: field }, { cause: error });
}
