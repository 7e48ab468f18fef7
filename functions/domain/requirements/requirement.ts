/**
 * One label requirement in Karpenter's canonical form: a set of values, or its complement,
 * optionally bounded by integer limits. Every NodeSelector operator maps onto it, which makes
 * intersection a closed, total operation (core: pkg/scheduling/requirement.go).
 */
import { normalizeLabelKey } from '../labels.ts';

export type Operator = 'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Gt' | 'Lt' | 'Gte' | 'Lte';

export const OPERATORS: readonly Operator[] = [
  'In',
  'NotIn',
  'Exists',
  'DoesNotExist',
  'Gt',
  'Lt',
  'Gte',
  'Lte',
];

/** The Kubernetes shape: NodeSelectorRequirement plus Karpenter's `minValues`. */
export interface NodeSelectorRequirement {
  readonly key: string;
  readonly operator: Operator;
  readonly values?: readonly string[];
  readonly minValues?: number;
}

export interface Requirement {
  readonly key: string;
  /** True: every value except `values` (NotIn, Exists, Gt, Lt). False: exactly `values`. */
  readonly complement: boolean;
  readonly values: ReadonlySet<string>;
  /** Exclusive lower bound on integer values. */
  readonly greaterThan?: number;
  /** Exclusive upper bound on integer values. */
  readonly lessThan?: number;
  readonly minValues?: number;
}

const NO_VALUES: ReadonlySet<string> = new Set();

function make(
  key: string,
  complement: boolean,
  values: ReadonlySet<string>,
  extra: Pick<Requirement, 'greaterThan' | 'lessThan' | 'minValues'> = {},
): Requirement {
  const out: { -readonly [K in keyof Requirement]: Requirement[K] } = { key, complement, values };
  if (extra.greaterThan !== undefined) out.greaterThan = extra.greaterThan;
  if (extra.lessThan !== undefined) out.lessThan = extra.lessThan;
  if (extra.minValues !== undefined) out.minValues = extra.minValues;
  return out;
}

function integerOf(value: string | undefined): number {
  const parsed = Number(value);
  return Number.isInteger(parsed) ? parsed : Number.NaN;
}

/** Builds a requirement from an operator; `Gte n` is stored as `> n-1`, `Lte n` as `< n+1`. */
export function requirement(
  key: string,
  operator: Operator,
  values: readonly string[] = [],
  minValues?: number,
): Requirement {
  const normalized = normalizeLabelKey(key);
  const flexibility = minValues === undefined ? {} : { minValues };
  switch (operator) {
    case 'In':
      return make(normalized, false, new Set(values), flexibility);
    case 'NotIn':
      return make(normalized, true, new Set(values), flexibility);
    case 'Exists':
      return make(normalized, true, NO_VALUES, flexibility);
    case 'DoesNotExist':
      return make(normalized, false, NO_VALUES, flexibility);
    case 'Gt':
      return make(normalized, true, NO_VALUES, {
        ...flexibility,
        greaterThan: integerOf(values[0]),
      });
    case 'Gte':
      return make(normalized, true, NO_VALUES, {
        ...flexibility,
        greaterThan: integerOf(values[0]) - 1,
      });
    case 'Lt':
      return make(normalized, true, NO_VALUES, { ...flexibility, lessThan: integerOf(values[0]) });
    case 'Lte':
      return make(normalized, true, NO_VALUES, {
        ...flexibility,
        lessThan: integerOf(values[0]) + 1,
      });
  }
}

export function fromNodeSelectorRequirement(source: NodeSelectorRequirement): Requirement {
  return requirement(source.key, source.operator, source.values ?? [], source.minValues);
}

function withinBounds(value: string, greaterThan?: number, lessThan?: number): boolean {
  if (greaterThan === undefined && lessThan === undefined) return true;
  const parsed = integerOf(value);
  if (Number.isNaN(parsed)) return false;
  return (
    (greaterThan === undefined || parsed > greaterThan) &&
    (lessThan === undefined || parsed < lessThan)
  );
}

function maxDefined(a?: number, b?: number): number | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return Math.max(a, b);
}

function minDefined(a?: number, b?: number): number | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return Math.min(a, b);
}

/**
 * Whether the exclusive bounds leave no integer: `> 3` and `< 4` allow nothing, as Karpenter's
 * inclusive form (`>= 4`, `<= 3`) shows.
 */
function noIntegerBetween(greaterThan?: number, lessThan?: number): boolean {
  return greaterThan !== undefined && lessThan !== undefined && lessThan - greaterThan <= 1;
}

function combineValues(a: Requirement, b: Requirement): Set<string> {
  if (a.complement && b.complement) return new Set([...a.values, ...b.values]);
  if (a.complement) return new Set([...b.values].filter((v) => !a.values.has(v)));
  if (b.complement) return new Set([...a.values].filter((v) => !b.values.has(v)));
  const [small, large] =
    a.values.size <= b.values.size ? [a.values, b.values] : [b.values, a.values];
  return new Set([...small].filter((v) => large.has(v)));
}

/** The values both requirements allow. */
export function intersect(a: Requirement, b: Requirement): Requirement {
  const complement = a.complement && b.complement;
  const greaterThan = maxDefined(a.greaterThan, b.greaterThan);
  const lessThan = minDefined(a.lessThan, b.lessThan);
  const minValues = maxDefined(a.minValues, b.minValues);
  if (noIntegerBetween(greaterThan, lessThan)) {
    return make(a.key, false, NO_VALUES, minValues === undefined ? {} : { minValues });
  }
  const values = combineValues(a, b);
  for (const value of values) if (!withinBounds(value, greaterThan, lessThan)) values.delete(value);
  const bounds = complement ? { greaterThan, lessThan } : {};
  return make(a.key, complement, values, { ...bounds, minValues });
}

export function has(req: Requirement, value: string): boolean {
  const listed = req.values.has(value);
  return (req.complement ? !listed : listed) && withinBounds(value, req.greaterThan, req.lessThan);
}

/** Whether no value can satisfy the requirement (it demands the label be absent, or is empty). */
export function isEmpty(req: Requirement): boolean {
  return !req.complement && req.values.size === 0;
}

/** The operator this requirement reads as, as Karpenter reports it. */
export function operatorOf(req: Requirement): Operator {
  if (req.complement) {
    if (req.values.size > 0) return 'NotIn';
    if (req.greaterThan !== undefined) return 'Gt';
    if (req.lessThan !== undefined) return 'Lt';
    return 'Exists';
  }
  return req.values.size > 0 ? 'In' : 'DoesNotExist';
}

/** Whether a node without this label satisfies the requirement. */
export function allowsAbsence(req: Requirement): boolean {
  const operator = operatorOf(req);
  return operator === 'NotIn' || operator === 'DoesNotExist';
}

/**
 * A deterministic representative value, or undefined when the requirement allows none: the
 * smallest listed value, or for an open-ended requirement (NotIn, Exists, bounds) the smallest
 * non-negative integer it allows — where Karpenter generates a random integer.
 */
export function anyValue(req: Requirement): string | undefined {
  if (!req.complement) {
    let best: string | undefined;
    for (const value of req.values) if (best === undefined || value < best) best = value;
    return best;
  }
  let candidate = Math.max(0, (req.greaterThan ?? -1) + 1);
  while (req.values.has(String(candidate))) candidate++;
  const value = String(candidate);
  return has(req, value) ? value : undefined;
}

export function formatRequirement(req: Requirement): string {
  const operator = operatorOf(req);
  const values = [...req.values].sort();
  if (operator === 'In' || operator === 'NotIn')
    return `${req.key} ${operator} [${values.join(', ')}]`;
  if (req.greaterThan !== undefined || req.lessThan !== undefined) {
    const bounds = [
      req.greaterThan === undefined ? '' : `> ${req.greaterThan}`,
      req.lessThan === undefined ? '' : `< ${req.lessThan}`,
    ];
    return `${req.key} ${bounds.filter(Boolean).join(' and ')}`;
  }
  return `${req.key} ${operator}`;
}

/**
 * Whether some value satisfies both requirements — `intersect` without building the result.
 * The scheduler asks this for every instance type, so it allocates nothing.
 */
export function overlaps(a: Requirement, b: Requirement): boolean {
  const greaterThan = maxDefined(a.greaterThan, b.greaterThan);
  const lessThan = minDefined(a.lessThan, b.lessThan);
  if (noIntegerBetween(greaterThan, lessThan)) return false;
  if (a.complement && b.complement) return true;
  if (a.complement)
    return someValue(b.values, (v) => !a.values.has(v) && withinBounds(v, greaterThan, lessThan));
  if (b.complement)
    return someValue(a.values, (v) => !b.values.has(v) && withinBounds(v, greaterThan, lessThan));
  const [small, large] =
    a.values.size <= b.values.size ? [a.values, b.values] : [b.values, a.values];
  return someValue(small, (v) => large.has(v));
}

function someValue(values: ReadonlySet<string>, test: (value: string) => boolean): boolean {
  for (const value of values) if (test(value)) return true;
  return false;
}
