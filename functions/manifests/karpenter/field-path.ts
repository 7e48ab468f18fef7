/**
 * Field paths in the notation Kubernetes uses in its own validation errors:
 * `spec.template.spec.requirements[2].operator`, `spec.kubelet.evictionHard[memory.available]`.
 */

/** Segments that read as field names; anything else (a label key, a signal name) is a map key. */
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function appendSegment(path: string, segment: PropertyKey): string {
  if (typeof segment === 'number') return `${path}[${segment}]`;
  const name = String(segment);
  if (!FIELD_NAME.test(name)) return `${path}[${name}]`;
  return path === '' ? name : `${path}.${name}`;
}

/** Formats a zod issue path; an empty path (the document itself) gives an empty string. */
export function toFieldPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(appendSegment, '');
}
