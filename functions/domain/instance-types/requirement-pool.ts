/**
 * One shared `In` requirement per label and value set, and one `DoesNotExist` per label, while a
 * catalog is built. Most label values
 * repeat across ~1,400 types (arch, os, sizes, CPU counts), and requirements are immutable, so
 * sharing them keeps the build fast and the resulting list small in memory.
 */
import { type Requirement, requirement } from '../requirements/requirement.ts';

/** Label key → values (joined) → `key In values`. */
export type RequirementPool = Map<string, Map<string, Requirement>>;

export function makeRequirementPool(): RequirementPool {
  return new Map();
}

function byValueOf(pool: RequirementPool, key: string): Map<string, Requirement> {
  let byValue = pool.get(key);
  if (byValue === undefined) {
    byValue = new Map();
    pool.set(key, byValue);
  }
  return byValue;
}

/** `key In [value]`, reusing the pool's requirement for the same key and value. */
export function pooledValue(pool: RequirementPool, key: string, value: string): Requirement {
  const byValue = byValueOf(pool, key);
  const existing = byValue.get(value);
  if (existing !== undefined) return existing;
  const created = requirement(key, 'In', [value]);
  byValue.set(value, created);
  return created;
}

/** `key In values`, reusing the pool's requirement for the same key and values. */
export function pooledValues(
  pool: RequirementPool,
  key: string,
  values: readonly string[],
): Requirement {
  // `In []` (no value) must not be confused with `In [""]` (the empty value).
  if (values.length === 0) return requirement(key, 'In', values);
  // Label values cannot contain a newline, so joining is unambiguous; one value joins to
  // itself and shares the requirement `pooledValue` made for it.
  const id = values.join('\n');
  const byValue = byValueOf(pool, key);
  const existing = byValue.get(id);
  if (existing !== undefined) return existing;
  const created = requirement(key, 'In', values);
  byValue.set(id, created);
  return created;
}

/** Joined values never hold a NUL (label values cannot), so this id is no value set's. */
const ABSENT = '\0';

/** `key DoesNotExist`, reusing the pool's requirement for the key. */
export function pooledAbsence(pool: RequirementPool, key: string): Requirement {
  const byValue = byValueOf(pool, key);
  const existing = byValue.get(ABSENT);
  if (existing !== undefined) return existing;
  const created = requirement(key, 'DoesNotExist');
  byValue.set(ABSENT, created);
  return created;
}
