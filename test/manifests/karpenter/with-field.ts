/** Builds invalid documents from valid ones, one field at a time. */

type Container = Record<string, unknown> | unknown[];

function isContainer(value: unknown): value is Container {
  return typeof value === 'object' && value !== null;
}

function childOf(parent: Container, segment: string | number): Container {
  const child = (parent as Record<string | number, unknown>)[segment];
  if (!isContainer(child)) throw new Error(`no mapping or list at ${String(segment)}`);
  return child;
}

/**
 * A deep copy of `doc` with the field at `path` set to `value`, creating mappings on the way;
 * `undefined` removes the field.
 */
export function withField(
  doc: Record<string, unknown>,
  path: readonly (string | number)[],
  value: unknown,
): Record<string, unknown> {
  const copy = structuredClone(doc);
  let parent: Container = copy;
  for (const segment of path.slice(0, -1)) {
    const holder = parent as Record<string | number, unknown>;
    if (holder[segment] === undefined) holder[segment] = {};
    parent = childOf(parent, segment);
  }
  const last = path[path.length - 1];
  if (last === undefined) throw new Error('withField needs a path');
  const holder = parent as Record<string | number, unknown>;
  if (value === undefined) delete holder[last];
  else holder[last] = value;
  return copy;
}
