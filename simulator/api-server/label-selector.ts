/**
 * Label selectors: the `labelSelector` query syntax (apimachinery `labels.Parse`: `a=b`, `a==b`,
 * `a!=b`, `a in (x,y)`, `a notin (x)`, `a`, `!a`, `a>1`, `a<1`, comma-joined) and the object form
 * (`matchLabels` + `matchExpressions`), both reduced to requirements that match the same way.
 */

import { isJsonObject, type JsonObject, type JsonValue } from './json.ts';
import { badRequest } from './status-errors.ts';

export type Operator = 'in' | 'notin' | 'exists' | '!' | 'gt' | 'lt';

export interface Requirement {
  readonly key: string;
  readonly operator: Operator;
  readonly values: readonly string[];
}

const SPECIAL = new Set(['!', '=', '>', '<', '(', ')', ',']);
const TWO_CHAR_OPERATORS = new Set(['==', '!=']);

function isSeparator(char: string | undefined): boolean {
  return char === undefined || SPECIAL.has(char) || /\s/.test(char);
}

/** The symbol or identifier starting at `start`. */
function tokenAt(text: string, start: number): string {
  const char = text[start] ?? '';
  if (SPECIAL.has(char)) {
    const pair = text.slice(start, start + 2);
    return TWO_CHAR_OPERATORS.has(pair) ? pair : char;
  }
  let end = start;
  while (end < text.length && !isSeparator(text[end])) end += 1;
  return text.slice(start, end);
}

/** Splits a selector into identifiers and symbols; whitespace only separates. */
export function tokenize(text: string): string[] {
  const tokens: string[] = [];
  let i = 0;
  while (i < text.length) {
    if (/\s/.test(text[i] ?? '')) {
      i += 1;
      continue;
    }
    const token = tokenAt(text, i);
    tokens.push(token);
    i += token.length;
  }
  return tokens;
}

function isIdentifier(token: string | undefined): token is string {
  return token !== undefined && !SPECIAL.has(token) && !TWO_CHAR_OPERATORS.has(token);
}

class Parser {
  readonly #tokens: string[];
  #position = 0;

  constructor(tokens: string[]) {
    this.#tokens = tokens;
  }

  parse(): Requirement[] {
    const requirements: Requirement[] = [];
    while (this.#peek() !== undefined) {
      requirements.push(this.#requirement());
      const next = this.#next();
      if (next !== undefined && next !== ',') this.#fail(next, "',' or 'end of string'");
    }
    return requirements;
  }

  #requirement(): Requirement {
    if (this.#peek() === '!') {
      this.#next();
      return { key: this.#identifier(), operator: '!', values: [] };
    }
    const key = this.#identifier();
    const operator = this.#peek();
    if (operator === undefined || operator === ',') return { key, operator: 'exists', values: [] };
    this.#next();
    return { key, ...this.#operation(operator) };
  }

  #operation(operator: string): Pick<Requirement, 'operator' | 'values'> {
    switch (operator) {
      case '=':
      case '==':
        return { operator: 'in', values: [this.#optionalValue()] };
      case '!=':
        return { operator: 'notin', values: [this.#optionalValue()] };
      case 'in':
      case 'notin':
        return { operator, values: this.#valueSet() };
      case '>':
        return { operator: 'gt', values: [this.#identifier()] };
      case '<':
        return { operator: 'lt', values: [this.#identifier()] };
      default:
        return this.#fail(operator, "'=', '!=', '==', 'in', notin'");
    }
  }

  #optionalValue(): string {
    return isIdentifier(this.#peek()) ? this.#identifier() : '';
  }

  #valueSet(): string[] {
    const open = this.#next();
    if (open !== '(') this.#fail(open, "'('");
    const values: string[] = [];
    let expectingValue = true;
    for (let token = this.#next(); token !== ')'; token = this.#next()) {
      if (token === undefined) this.#fail('', "',' or ')'");
      if (token === ',') {
        if (expectingValue) values.push('');
        expectingValue = true;
      } else if (isIdentifier(token) && expectingValue) {
        values.push(token);
        expectingValue = false;
      } else {
        this.#fail(token, "',' or ')'");
      }
    }
    if (expectingValue) values.push('');
    return values;
  }

  #identifier(): string {
    const token = this.#next();
    if (!isIdentifier(token)) return this.#fail(token ?? '', 'identifier');
    return token;
  }

  #peek(): string | undefined {
    return this.#tokens[this.#position];
  }

  #next(): string | undefined {
    const token = this.#tokens[this.#position];
    this.#position += 1;
    return token;
  }

  #fail(found: string | undefined, expected: string): never {
    throw badRequest(`unable to parse requirement: found '${found ?? ''}', expected: ${expected}`);
  }
}

/** Parses a `labelSelector` query value; an empty one selects everything. Throws a 400. */
export function parseLabelSelector(text: string): Requirement[] {
  return new Parser(tokenize(text)).parse();
}

function compareInteger(value: string | undefined, bound: string | undefined): number | undefined {
  if (value === undefined || bound === undefined) return undefined;
  if (!/^-?\d+$/.test(value) || !/^-?\d+$/.test(bound)) return undefined;
  return Number(value) - Number(bound);
}

export function matchesRequirement(
  labels: Readonly<Record<string, string>>,
  r: Requirement,
): boolean {
  const value = labels[r.key];
  switch (r.operator) {
    case 'in':
      return value !== undefined && r.values.includes(value);
    case 'notin':
      return value === undefined || !r.values.includes(value);
    case 'exists':
      return value !== undefined;
    case '!':
      return value === undefined;
    case 'gt':
      return (compareInteger(value, r.values[0]) ?? 0) > 0;
    case 'lt':
      return (compareInteger(value, r.values[0]) ?? 0) < 0;
  }
}

export function matchesLabels(
  labels: Readonly<Record<string, string>>,
  requirements: readonly Requirement[],
): boolean {
  return requirements.every((requirement) => matchesRequirement(labels, requirement));
}

const EXPRESSION_OPERATORS: Readonly<Record<string, Operator>> = {
  In: 'in',
  NotIn: 'notin',
  Exists: 'exists',
  DoesNotExist: '!',
};

function stringValues(value: JsonValue | undefined): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function expressionRequirement(expression: JsonValue): Requirement | undefined {
  if (!isJsonObject(expression) || typeof expression.key !== 'string') return undefined;
  const operator = EXPRESSION_OPERATORS[String(expression.operator)];
  if (operator === undefined) return undefined;
  return { key: expression.key, operator, values: stringValues(expression.values) };
}

/**
 * A `metav1.LabelSelector` as requirements, or undefined when it cannot be converted (an unknown
 * operator): `LabelSelectorAsSelector` fails then, and callers treat the selector as matching
 * nothing.
 */
export function requirementsOf(selector: JsonObject): Requirement[] | undefined {
  const requirements: Requirement[] = [];
  const matchLabels = isJsonObject(selector.matchLabels) ? selector.matchLabels : {};
  for (const [key, value] of Object.entries(matchLabels)) {
    requirements.push({ key, operator: 'in', values: [String(value)] });
  }
  const expressions = Array.isArray(selector.matchExpressions) ? selector.matchExpressions : [];
  for (const expression of expressions) {
    const requirement = expressionRequirement(expression);
    if (requirement === undefined) return undefined;
    requirements.push(requirement);
  }
  return requirements;
}
