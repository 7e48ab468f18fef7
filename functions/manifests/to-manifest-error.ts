/**
 * Turns zod's issues into one ManifestError naming the field in Kubernetes notation.
 *
 * Only the first problem is reported, as kubectl users are used to fixing one field at a time and
 * a single path is what a CLI or an API 4xx can point at. Unknown fields come first: a misspelt
 * key (`requirments`) is usually also why a required field looks missing.
 */
import type * as z from 'zod';
import { ManifestError } from './manifest-error.ts';

type Issue = z.core.$ZodIssue;

function rank(issue: Issue): number {
  return issue.code === 'unrecognized_keys' ? 0 : 1;
}

/** The issue to report: the first unknown field, else the first issue in document order. */
export function firstIssue(issues: readonly Issue[]): Issue | undefined {
  return [...issues].sort((a, b) => rank(a) - rank(b))[0];
}

/** Says where an unknown field went, for fields an older API version had; undefined if nowhere. */
export type UnknownFieldHint = (path: readonly PropertyKey[]) => string | undefined;

function locate(
  issue: Issue,
  hint: UnknownFieldHint,
): { readonly path: readonly PropertyKey[]; readonly detail: string } {
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0] ?? '';
    const path = [...issue.path, key];
    const moved = hint(path);
    const detail = `unknown field "${key}"${moved === undefined ? '' : `: ${moved}`}`;
    return { path, detail };
  }
  return { path: issue.path, detail: issue.message };
}

export function toManifestError(
  error: z.core.$ZodError,
  hint: UnknownFieldHint = () => undefined,
): ManifestError {
  const issue = firstIssue(error.issues);
  if (issue === undefined) return new ManifestError('document is invalid', {}, { cause: error });
  const { path, detail } = locate(issue, hint);
  // zod's paths may hold symbols in principle; a field path names them as text.
  const field = path.map((segment) => (typeof segment === 'symbol' ? String(segment) : segment));
  return new ManifestError(detail, { field }, { cause: error });
}
