/**
 * Messages for zod's generic issues, phrased for someone editing YAML: what is wrong and what is
 * allowed. Passed to `safeParse` as the per-parse error map, so a message a schema sets itself
 * (a pattern, a cross-field rule) always wins over these.
 */
import type * as z from 'zod';

type RawIssue = z.core.$ZodRawIssue;

const EXPECTED: Readonly<Record<string, string>> = {
  string: 'a string',
  int: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  object: 'a mapping',
  record: 'a mapping',
  array: 'a list',
};

/** The last named segment of a path: the field an issue is about. */
export function fieldName(path: readonly PropertyKey[] | undefined): string {
  const named = [...(path ?? [])].reverse().find((segment) => typeof segment === 'string');
  return named === undefined ? 'document' : String(named);
}

/** How a YAML value reads to its author: `null`, `a list`, `1.5`, `"abc"`. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string') return JSON.stringify(value);
  return String(value);
}

function invalidType(issue: Extract<RawIssue, { code: 'invalid_type' }>): string {
  if (issue.input === undefined) return `required field "${fieldName(issue.path)}" is missing`;
  const expected = EXPECTED[issue.expected] ?? issue.expected;
  return `must be ${expected}, got ${describeValue(issue.input)}`;
}

function invalidValue(issue: Extract<RawIssue, { code: 'invalid_value' }>): string {
  const allowed = issue.values
    .map(String)
    .filter((value) => value !== '')
    .join(', ');
  if (issue.input === undefined) {
    return `required field "${fieldName(issue.path)}" is missing (one of ${allowed})`;
  }
  return `${fieldName(issue.path)} ${describeValue(issue.input)} is not one of ${allowed}`;
}

type BoundIssue = Extract<RawIssue, { code: 'too_small' | 'too_big' }>;

function relation(issue: BoundIssue): string {
  if (issue.code === 'too_small') return issue.inclusive === false ? 'more than' : 'at least';
  return issue.inclusive === false ? 'less than' : 'at most';
}

function bound(issue: BoundIssue): string {
  const limit = issue.code === 'too_small' ? issue.minimum : issue.maximum;
  if (issue.origin === 'array') {
    const count = Array.isArray(issue.input) ? `, got ${issue.input.length}` : '';
    return `must have ${relation(issue)} ${limit} items${count}`;
  }
  if (issue.origin === 'string') {
    if (issue.code === 'too_small' && Number(limit) === 1) return 'must not be empty';
    return `must be ${relation(issue)} ${limit} characters long`;
  }
  return `must be ${relation(issue)} ${limit}, got ${describeValue(issue.input)}`;
}

/** The message for an issue, or undefined to keep zod's own. */
export function describeIssue(issue: RawIssue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      return invalidType(issue);
    case 'invalid_value':
      return invalidValue(issue);
    case 'too_small':
    case 'too_big':
      return bound(issue);
    case 'invalid_format':
      return `${describeValue(issue.input)} is not a valid ${fieldName(issue.path)}`;
    default:
      return undefined;
  }
}
