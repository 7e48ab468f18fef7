/**
 * Field paths in the Kubernetes notation users know from `kubectl explain` and API errors:
 * `spec.containers[1].resources.requests.memory`. Keys that are not plain identifiers (label
 * keys, `ephemeral-storage`, extended resources) are bracketed:
 * `metadata.labels[app.kubernetes.io/name]`, the notation of Kubernetes' own field errors.
 */

export type FieldPath = readonly (string | number)[];

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function formatFieldPath(path: FieldPath): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else if (!IDENTIFIER.test(segment)) text += `[${segment}]`;
    else text += text === '' ? segment : `.${segment}`;
  }
  return text;
}
