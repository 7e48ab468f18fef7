/** Reads a core/v1 Namespace for its labels (pod affinity terms select namespaces by label). */
import type { Namespace } from '../../domain/namespace.ts';
import { asFields } from './fields.ts';
import { readMetadata } from './metadata.ts';

export type { Namespace };

/** Throws ManifestError naming the field path (no file or line: the caller knows those). */
export function toNamespace(object: unknown): Namespace {
  const meta = readMetadata(asFields(object, undefined));
  return { name: meta.name, labels: meta.labels };
}
