/** Node taints and pod tolerations. */
import type { Taint, TaintEffect, Toleration } from '../../domain/taints.ts';
import {
  type At,
  asFields,
  defined,
  type Fields,
  optionalEnum,
  optionalInteger,
  optionalString,
  requiredEnum,
  requiredString,
} from './fields.ts';

const EFFECTS: readonly TaintEffect[] = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];
const TOLERATION_OPERATORS = ['Exists', 'Equal'] as const;

export function readTaint(item: unknown, position: At): Taint {
  const fields = asFields(item, position);
  return defined({
    key: requiredString(fields, 'key', position),
    value: optionalString(fields, 'value', position),
    effect: requiredEnum(fields, 'effect', position, EFFECTS),
  });
}

export function readToleration(item: unknown, position: At): Toleration {
  const fields = asFields(item, position);
  return defined({
    key: optionalString(fields, 'key', position),
    operator: unlessEmpty(fields, 'operator', position, TOLERATION_OPERATORS),
    value: optionalString(fields, 'value', position),
    effect: unlessEmpty(fields, 'effect', position, EFFECTS),
    tolerationSeconds: optionalInteger(fields, 'tolerationSeconds', position),
  });
}

/** An empty effect or operator in a toleration is the API's way of leaving it unset (all effects, Equal). */
function unlessEmpty<T extends string>(
  fields: Fields,
  key: string,
  position: At,
  allowed: readonly T[],
): T | undefined {
  return fields[key] === '' ? undefined : optionalEnum(fields, key, position, allowed);
}
