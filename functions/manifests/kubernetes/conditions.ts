/** Status conditions (`{type, status, reason}`), as Pods and Nodes report them. */
import {
  type At,
  asFields,
  type Fields,
  optionalList,
  optionalString,
  requiredString,
} from './fields.ts';

export interface Condition {
  readonly type: string;
  readonly status: string;
  readonly reason?: string;
}

export function readConditions(status: Fields | undefined, parent: At): readonly Condition[] {
  if (status === undefined) return [];
  return optionalList(status, 'conditions', parent, readCondition) ?? [];
}

function readCondition(item: unknown, position: At): Condition {
  const fields = asFields(item, position);
  return {
    type: requiredString(fields, 'type', position),
    status: requiredString(fields, 'status', position),
    reason: optionalString(fields, 'reason', position),
  };
}
