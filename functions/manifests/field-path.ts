/**
 * Field paths in the Kubernetes notation users know from `kubectl explain` and API errors:
 * `spec.containers[1].resources.requests.memory`. Keys that are not plain identifiers (label
 * keys, `ephemeral-storage`, extended resources, eviction signals) are bracketed:
 * `metadata.labels[app.kubernetes.io/name]`, the notation of Kubernetes' own field errors.
 */

export type FieldPath = readonly (string | number)[];

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

function appendSegment(path: string, segment: PropertyKey): string {
  if (typeof segment === 'number') return `${path}[${segment}]`;
  const name = String(segment);
  if (!IDENTIFIER.test(name)) return `${path}[${name}]`;
  return path === '' ? name : `${path}.${name}`;
}

/** Formats a path (a zod issue's, or segments); an empty path gives an empty string. */
export function formatFieldPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(appendSegment, '');
}
