/** Workload documents are read loosely: a field of the wrong shape counts as absent. */
import { ManifestError } from '../manifest-error.ts';
export type PlainObject = Record<string, unknown>;

export function asObject(value: unknown): PlainObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as PlainObject)
    : {};
}

export function asList(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** A replica count or the like: a whole number of at least zero, else `fallback`. */
export function count(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : fallback;
}

export function nameOf(object: PlainObject): string {
  return String(asObject(object.metadata).name);
}

export function namespaceOf(object: PlainObject): string {
  const namespace = asObject(object.metadata).namespace;
  return typeof namespace === 'string' ? namespace : 'default';
}

/**
 * The most pods one workload may stand for: a few lines of YAML must not make a billion pods in
 * memory. Far above any real workload (a 20,000-pod dump is the largest input read).
 */
export const MAX_WORKLOAD_PODS = 100_000;

/** `count`, refused with the field's path when above MAX_WORKLOAD_PODS. */
export function podCount(spec: PlainObject, field: string, fallback: number): number {
  const value = count(spec[field], fallback);
  if (value > MAX_WORKLOAD_PODS) {
    throw new ManifestError(`more than ${MAX_WORKLOAD_PODS} pods for one workload`, {
      field: ['spec', field],
    });
  }
  return value;
}
