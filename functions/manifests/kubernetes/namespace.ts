/**
 * A core/v1 Namespace, read for its labels: pod affinity terms select namespaces by label
 * (`namespaceSelector`). The domain has no Namespace type, so the shape is defined here.
 */
import type { Labels } from '../../domain/label-selector.ts';
import { asFields } from './fields.ts';
import { readMetadata } from './metadata.ts';

export interface Namespace {
  readonly name: string;
  readonly labels: Labels;
}

/** Throws ManifestError naming the field path (no file or line: the caller knows those). */
export function toNamespace(object: unknown): Namespace {
  const meta = readMetadata(asFields(object, undefined));
  return { name: meta.name, labels: meta.labels };
}
