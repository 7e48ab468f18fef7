/**
 * Reads an object a workload's controller would create. Its errors lie in the workload's
 * template, so they are reported there: the workload's file and line, the field under the
 * template (`spec.template.spec.containers[0]…`).
 */
import type { ManifestDocument } from '../documents.ts';
import type { FieldPath } from '../field-path.ts';
import { locateError } from '../locate-error.ts';
import { ManifestError } from '../manifest-error.ts';

export function parseCreated<T>(
  created: { readonly object: unknown; readonly document: ManifestDocument },
  templatePath: FieldPath,
  parse: (object: unknown) => T,
): T {
  try {
    return parse(created.object);
  } catch (error) {
    if (!(error instanceof ManifestError) || error.location.file !== undefined) throw error;
    const field = [...templatePath, ...error.field];
    throw locateError(
      new ManifestError(error.detail, { field }, { cause: error }),
      created.document,
    );
  }
}
