/**
 * The condition operators of IAM (IAM User Guide, "IAM JSON policy elements: Condition
 * operators", and "Single-valued vs. multivalued context keys"). Within a `Condition` block
 * every operator and every key must hold; the values listed under one key are alternatives.
 * A key missing from the request fails the comparison, except under a negated operator
 * (`StringNotEquals`, `ArnNotLike`, …), `…IfExists` and `ForAllValues:`, where it holds, and
 * under `Null`, which tests exactly that. IP address and binary operators are left out: no
 * policy Nodesmith runs under uses them, and an operator this table lacks is refused.
 */
import type { ConditionValue, OneOrMany, PolicyStatement } from './policy-document.ts';
import { listOf } from './policy-document.ts';
import { arnMatches, globMatches } from './wildcards.ts';

/** What the request holds: each key once, lower-cased (condition keys are case-insensitive). */
export type RequestContext = ReadonlyMap<string, readonly string[]>;

export function requestContextOf(
  values: Readonly<Record<string, string | readonly string[] | undefined>>,
): RequestContext {
  const context = new Map<string, readonly string[]>();
  for (const [key, value] of Object.entries(values)) {
    if (value !== undefined)
      context.set(key.toLowerCase(), typeof value === 'string' ? [value] : value);
  }
  return context;
}

interface Comparison {
  /** Whether one request value matches one policy value. */
  readonly matches: (request: string, policy: string) => boolean;
  /** A negated operator holds when the request value matches none of the policy's values. */
  readonly negated: boolean;
}

function numeric(test: (a: number, b: number) => boolean) {
  return (request: string, policy: string) => test(Number(request), Number(policy));
}

/** ISO 8601 dates or epoch seconds, as the guide's Date operators take them. */
function instant(value: string): number {
  return /^\d+$/.test(value) ? Number(value) * 1000 : Date.parse(value);
}

function date(test: (a: number, b: number) => boolean) {
  return (request: string, policy: string) => test(instant(request), instant(policy));
}

const equals = (a: string, b: string) => a === b;
const equalsIgnoringCase = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
const like = (request: string, policy: string) => globMatches(policy, request);
const arnLike = (request: string, policy: string) => arnMatches(policy, request);
const same = (a: number, b: number) => a === b;
const less = (a: number, b: number) => a < b;
const atMost = (a: number, b: number) => a <= b;
const more = (a: number, b: number) => a > b;
const atLeast = (a: number, b: number) => a >= b;

const COMPARISONS: Readonly<Record<string, Comparison>> = {
  StringEquals: { matches: equals, negated: false },
  StringNotEquals: { matches: equals, negated: true },
  StringEqualsIgnoreCase: { matches: equalsIgnoringCase, negated: false },
  StringNotEqualsIgnoreCase: { matches: equalsIgnoringCase, negated: true },
  StringLike: { matches: like, negated: false },
  StringNotLike: { matches: like, negated: true },
  ArnEquals: { matches: arnLike, negated: false },
  ArnLike: { matches: arnLike, negated: false },
  ArnNotEquals: { matches: arnLike, negated: true },
  ArnNotLike: { matches: arnLike, negated: true },
  NumericEquals: { matches: numeric(same), negated: false },
  NumericNotEquals: { matches: numeric(same), negated: true },
  NumericLessThan: { matches: numeric(less), negated: false },
  NumericLessThanEquals: { matches: numeric(atMost), negated: false },
  NumericGreaterThan: { matches: numeric(more), negated: false },
  NumericGreaterThanEquals: { matches: numeric(atLeast), negated: false },
  DateEquals: { matches: date(same), negated: false },
  DateNotEquals: { matches: date(same), negated: true },
  DateLessThan: { matches: date(less), negated: false },
  DateLessThanEquals: { matches: date(atMost), negated: false },
  DateGreaterThan: { matches: date(more), negated: false },
  DateGreaterThanEquals: { matches: date(atLeast), negated: false },
  Bool: { matches: equalsIgnoringCase, negated: false },
};

interface Operator {
  readonly set?: 'ForAnyValue' | 'ForAllValues';
  readonly name: string;
  readonly ifExists: boolean;
}

function operatorOf(text: string): Operator {
  const [qualifier, rest] = text.includes(':') ? text.split(':', 2) : [undefined, text];
  if (qualifier !== undefined && qualifier !== 'ForAnyValue' && qualifier !== 'ForAllValues')
    throw new Error(`unknown condition set operator ${qualifier}`);
  const base = rest ?? text;
  const ifExists = base.endsWith('IfExists') && base !== 'IfExists';
  const name = ifExists ? base.slice(0, -'IfExists'.length) : base;
  if (name !== 'Null' && COMPARISONS[name] === undefined)
    throw new Error(`unsupported condition operator ${text}`);
  return { ...(qualifier === undefined ? {} : { set: qualifier }), name, ifExists };
}

/** One request value against the policy's values: any matches, or for a negated operator none. */
function valueHolds(comparison: Comparison, request: string, policy: readonly string[]): boolean {
  const matched = policy.some((value) => comparison.matches(request, value));
  return comparison.negated ? !matched : matched;
}

function absentHolds(operator: Operator, comparison: Comparison): boolean {
  return (
    operator.ifExists ||
    operator.set === 'ForAllValues' ||
    (operator.set === undefined && comparison.negated)
  );
}

function keyHolds(
  operator: Operator,
  present: readonly string[] | undefined,
  policy: readonly string[],
): boolean {
  if (operator.name === 'Null') return policy.includes(String(present === undefined));
  const comparison = COMPARISONS[operator.name] as Comparison;
  if (present === undefined || present.length === 0) return absentHolds(operator, comparison);
  if (operator.set === 'ForAllValues')
    return present.every((v) => valueHolds(comparison, v, policy));
  // A single-valued key, or ForAnyValue: one request value holding is enough.
  return present.some((v) => valueHolds(comparison, v, policy));
}

function textOf(values: OneOrMany<ConditionValue>): readonly string[] {
  return listOf(values).map((value) => String(value));
}

/** Whether every operator and key of the statement's `Condition` holds for the request. */
export function conditionHolds(
  condition: PolicyStatement['Condition'],
  context: RequestContext,
): boolean {
  if (condition === undefined) return true;
  return Object.entries(condition).every(([text, keys]) => {
    const operator = operatorOf(text);
    return Object.entries(keys).every(([key, values]) =>
      keyHolds(operator, context.get(key.toLowerCase()), textOf(values)),
    );
  });
}
