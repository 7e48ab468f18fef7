/**
 * Field selectors (`fieldSelector=spec.nodeName=n1,status.phase!=Succeeded`): apimachinery
 * `fields.ParseSelector` syntax with `\,`, `\=` and `\\` escapes, and per-resource field support
 * (an unknown field is the 400 `field label not supported: …` the server sends).
 */

import type { JsonObject } from './json.ts';
import type { ResourceDescriptor } from './resource-descriptor.ts';
import { badRequest } from './status-errors.ts';

export interface FieldRequirement {
  readonly field: string;
  readonly operator: '=' | '!=';
  readonly value: string;
}

/** Splits on commas that are not escaped; escapes stay in the terms. */
function splitTerms(text: string): string[] {
  const terms: string[] = [];
  let start = 0;
  let escaped = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (escaped) escaped = false;
    else if (char === '\\') escaped = true;
    else if (char === ',') {
      terms.push(text.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(text.slice(start));
  return terms;
}

const TERM_OPERATORS = ['!=', '==', '='] as const;

/** The first operator from the left, trying `!=`, `==`, `=` at each position (as Go does). */
function splitTerm(term: string): [string, '=' | '!=', string] | undefined {
  for (let i = 0; i < term.length; i += 1) {
    const rest = term.slice(i);
    const operator = TERM_OPERATORS.find((op) => rest.startsWith(op));
    if (operator !== undefined) {
      const lhs = term.slice(0, i);
      const rhs = term.slice(i + operator.length);
      return [lhs, operator === '!=' ? '!=' : '=', rhs];
    }
  }
  return undefined;
}

function unescapeValue(value: string): string {
  let out = '';
  for (let i = 0; i < value.length; i += 1) {
    const char = value[i] ?? '';
    if (char !== '\\') {
      out += char;
      continue;
    }
    const next = value[i + 1];
    if (next !== '\\' && next !== ',' && next !== '=') {
      throw badRequest(`invalid field selector: invalid escape sequence: \\${next ?? ''}`);
    }
    out += next;
    i += 1;
  }
  return out;
}

/** Parses a `fieldSelector` query value; an empty one selects everything. Throws a 400. */
export function parseFieldSelector(text: string): FieldRequirement[] {
  const requirements: FieldRequirement[] = [];
  for (const term of splitTerms(text)) {
    if (term === '') continue;
    const parts = splitTerm(term);
    if (parts === undefined) {
      throw badRequest(`invalid selector: '${text}'; can't understand '${term}'`);
    }
    const [field, operator, value] = parts;
    requirements.push({ field, operator, value: unescapeValue(value) });
  }
  return requirements;
}

/** Rejects fields the resource cannot be selected by, worded as the field-label conversion does. */
export function checkSupportedFields(
  descriptor: ResourceDescriptor,
  requirements: readonly FieldRequirement[],
): void {
  for (const { field } of requirements) {
    if (!(field in descriptor.fieldSelectors)) {
      throw badRequest(`field label not supported: ${field}`);
    }
  }
}

export function matchesFields(
  descriptor: ResourceDescriptor,
  object: JsonObject,
  requirements: readonly FieldRequirement[],
): boolean {
  return requirements.every(({ field, operator, value }) => {
    const actual = descriptor.fieldSelectors[field]?.(object) ?? '';
    return operator === '=' ? actual === value : actual !== value;
  });
}
