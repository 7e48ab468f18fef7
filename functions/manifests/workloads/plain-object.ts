/** Workload documents are read loosely: a field of the wrong shape counts as absent. */
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
