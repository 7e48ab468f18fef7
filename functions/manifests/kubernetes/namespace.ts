/** Reads a core/v1 Namespace for its labels (pod affinity terms select namespaces by label). */
import * as z from 'zod';
import type { Namespace } from '../../domain/namespace.ts';
import { objectMeta } from './metadata.ts';
import { readWith } from './schema.ts';

export type { Namespace };

const namespaceSchema = z
  .object({ metadata: objectMeta })
  .transform(({ metadata }): Namespace => ({ name: metadata.name, labels: metadata.labels }));

/** Throws ManifestError naming the field path (no file or line: the caller knows those). */
export function toNamespace(object: unknown): Namespace {
  return readWith(namespaceSchema, object);
}
