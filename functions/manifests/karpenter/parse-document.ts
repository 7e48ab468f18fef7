/**
 * Reads one Kubernetes document against a schema: the type (apiVersion and kind) is checked
 * first, so a v1beta1 NodePool is reported as the wrong version rather than as a dozen unknown
 * fields, then the schema validates the rest and fills in the CRD defaults. The input is never
 * modified; the result is a new object.
 */
import type * as z from 'zod';
import { describeIssue, describeValue } from '../issue-messages.ts';
import { ManifestError } from '../manifest-error.ts';
import { isObjectFields } from '../object-fields.ts';
import { toManifestError } from '../to-manifest-error.ts';
import { dropNulls } from './drop-nulls.ts';
import { movedFieldHint } from './v1-moves.ts';

export interface DocumentType {
  readonly apiVersion: string;
  readonly kind: string;
}

function checkType(doc: unknown, expected: DocumentType): void {
  if (!isObjectFields(doc)) {
    throw new ManifestError(`a ${expected.kind} must be a mapping, got ${describeValue(doc)}`);
  }
  for (const field of ['apiVersion', 'kind'] as const) {
    const actual = doc[field];
    if (actual !== expected[field]) {
      const got = actual === undefined ? 'missing' : describeValue(actual);
      throw new ManifestError(`${field} must be ${expected[field]}, got ${got}`, {
        field: [field],
      });
    }
  }
}

/** Validates `doc` as `expected` and returns it with defaults applied; throws ManifestError. */
export function parseDocument<S extends z.ZodType>(
  schema: S,
  expected: DocumentType,
  doc: unknown,
): z.output<S> {
  checkType(doc, expected);
  const result = schema.safeParse(dropNulls(doc), { error: describeIssue, reportInput: true });
  if (!result.success) {
    throw toManifestError(result.error, (path) => movedFieldHint(expected.kind, path));
  }
  return result.data;
}
